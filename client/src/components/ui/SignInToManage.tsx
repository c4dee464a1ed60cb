import { Link } from 'react-router-dom';

/** What a signed-out visitor reads on a page of things only an account has (API keys, webhook endpoints). */
export function SignInToManage({ what }: { what: string }) {
  return (
    <p className="card p-6 text-center text-slate-600 dark:text-slate-300">
      <Link to="/login" className="font-semibold text-violet-700 hover:underline dark:text-violet-300">
        Sign in
      </Link>{' '}
      to manage {what}.
    </p>
  );
}
