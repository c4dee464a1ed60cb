/**
 * GET /admin: trades a Firebase ID token for the admin session cookie. It reveals nothing; everything
 * it leads to is behind the admin check. The token can be pasted (from the client's devtools, or
 * `firebase.auth().currentUser.getIdToken()`); with the Auth emulator, email and password work too.
 */
export function adminLoginPage(options: { emulatorHost: string | null }): string {
  const emulatorForm =
    options.emulatorHost === null
      ? ''
      : `<h2>Auth emulator</h2>
<form id="password"><input name="email" type="email" placeholder="email" required>
<input name="password" type="password" placeholder="password" required><button>Sign in</button></form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MediaGen admin</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}
textarea,input{width:100%;box-sizing:border-box;margin:.25rem 0;padding:.5rem}#status{color:#b00}</style></head>
<body><h1>MediaGen admin</h1>
<p>Sign in with a Firebase ID token of an admin (custom claim <code>admin: true</code>, or an email in
<code>ADMIN_EMAILS</code>). The session lasts a few minutes.</p>
<form id="token"><textarea name="token" rows="6" placeholder="Firebase ID token" required></textarea>
<button>Open the queues</button></form>
${emulatorForm}
<p><button id="sign-out" type="button">Sign out of the admin session</button></p>
<p id="status" role="status"></p>
<script>
const status = document.getElementById('status');
async function openSession(idToken) {
  const response = await fetch('/admin/session', { method: 'POST', headers: { authorization: 'Bearer ' + idToken } });
  if (response.ok) { location.href = '/admin/queues'; return; }
  const body = await response.json().catch(() => ({}));
  status.textContent = (body.error && body.error.message) || ('Sign-in failed (' + response.status + ')');
}
document.getElementById('token').addEventListener('submit', (event) => {
  event.preventDefault();
  openSession(new FormData(event.target).get('token').trim());
});
document.getElementById('sign-out').addEventListener('click', async () => {
  const response = await fetch('/admin/session', { method: 'DELETE' });
  status.textContent = response.ok ? 'Signed out.' : 'Sign-out failed (' + response.status + ')';
});
const password = document.getElementById('password');
if (password) password.addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const response = await fetch(${JSON.stringify(
    `http://${options.emulatorHost ?? ''}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=emulator`,
  )}, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: form.get('email'), password: form.get('password'), returnSecureToken: true }) });
  const body = await response.json();
  if (!response.ok) { status.textContent = (body.error && body.error.message) || 'Sign-in failed'; return; }
  openSession(body.idToken);
});
</script></body></html>`;
}
