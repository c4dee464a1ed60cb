import { AUTH_MESSAGES } from '@mediagen/shared';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { signOutEverywhere } from '../api/auth-actions';

export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  return async () => {
    try {
      await signOutEverywhere();
      await navigate('/');
      toast.success(AUTH_MESSAGES.loggedOut);
    } catch (error) {
      // Spec §8: a logout failure is logged only.
      console.error('Logout failed', error);
    }
  };
}
