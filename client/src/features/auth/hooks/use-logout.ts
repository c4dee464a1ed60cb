import { useNavigate } from 'react-router-dom';

export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  return async () => {
    try {
      // The top bar is on every page, but only a signed-in user can log out: the sign-in code and
      // its messages load with the click, not with the landing page.
      const { logOut } = await import('../log-out');
      await logOut(() => navigate('/'));
    } catch (error) {
      // Spec §8: a logout failure is logged only.
      console.error('Logout failed', error);
    }
  };
}
