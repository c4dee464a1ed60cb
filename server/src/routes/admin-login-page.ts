import { SALES_VOLUME_LABELS, SUPPORT_TOPIC_LABELS } from '@mediagen/shared';

/**
 * GET /admin: trades a Firebase ID token for the admin session cookie. It reveals nothing; everything
 * it leads to is behind the admin check. The token can be pasted (from the client's devtools, or
 * `firebase.auth().currentUser.getIdToken()`); with the Auth emulator, email and password work too.
 * Signed in, it finds a generation by id (`/admin/api/generations/:id`: its state, the provider's answer, its
 * trace id), lists the support form's requests (`/admin/api/support`) to answer, and Contact Sales requests (`/admin/api/sales`). What people wrote is
 * put on the page as text (`textContent`), never as HTML.
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
textarea,input{width:100%;box-sizing:border-box;margin:.25rem 0;padding:.5rem}#status{color:#b00}
input[type=checkbox]{width:auto}.request{border:1px solid #ccc;border-radius:.5rem;padding:.75rem;margin:.75rem 0}
.request p{white-space:pre-wrap;overflow-wrap:anywhere}.meta{color:#555;font-size:.9rem}</style></head>
<body><h1>MediaGen admin</h1>
<p>Sign in with a Firebase ID token of an admin (custom claim <code>admin: true</code>, or an email in
<code>ADMIN_EMAILS</code>). The session lasts a few minutes.</p>
<form id="token"><textarea name="token" rows="6" placeholder="Firebase ID token" required></textarea>
<button>Sign in with the token</button></form>
${emulatorForm}
<p><a href="/admin/queues">Open the queues</a></p>
<p><button id="sign-out" type="button">Sign out of the admin session</button></p>
<p id="status" role="status"></p>
<section aria-labelledby="find-title"><h2 id="find-title">Find a generation</h2>
<form id="find"><input name="id" placeholder="generation id (video_…)" required><button>Find</button></form>
<p id="find-status" role="status"></p><dl id="find-details"></dl></section>
<section aria-labelledby="support-title"><h2 id="support-title">Support requests</h2>
<label><input id="support-all" type="checkbox"> Show answered requests too</label>
<p id="support-status" role="status"></p><div id="support-list"></div>
<button id="support-more" type="button" hidden>Older requests</button></section>
<section aria-labelledby="sales-title"><h2 id="sales-title">Sales requests</h2>
<p id="sales-status" role="status"></p><div id="sales-list"></div></section>
<script>
const status = document.getElementById('status');
async function openSession(idToken) {
  const response = await fetch('/admin/session', { method: 'POST', headers: { authorization: 'Bearer ' + idToken } });
  if (response.ok) { status.textContent = 'Signed in.'; loadSupport(); loadSales(); return; }
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
  loadSupport();
});
const generationStatus = document.getElementById('find-status');
const generationDetails = document.getElementById('find-details');
document.getElementById('find').addEventListener('submit', async (event) => {
  event.preventDefault();
  generationDetails.replaceChildren();
  const id = new FormData(event.target).get('id').trim();
  const response = await fetch('/admin/api/generations/' + encodeURIComponent(id));
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    generationStatus.textContent = response.status === 404 ? 'No generation ' + id + '.'
      : (body.error && body.error.message) || ('Could not find it (' + response.status + ')');
    return;
  }
  generationStatus.textContent = '';
  const rows = [['Status', body.status], ['Kind', body.kind], ['Owner', body.uid], ['Token', body.token],
    ['Created', new Date(body.createdAt).toLocaleString()], ['Provider task', body.providerTaskId || '—'],
    ['Error', body.error ? body.error.code + ': ' + body.error.message : '—'], ['Provider said', body.providerError || '—'],
    ['Trace id', body.traceId || 'not traced']];
  for (const [name, value] of rows) generationDetails.append(element('dt', name), element('dd', String(value)));
});
const TOPICS = ${JSON.stringify(SUPPORT_TOPIC_LABELS)};
const supportStatus = document.getElementById('support-status');
const supportList = document.getElementById('support-list');
const supportAll = document.getElementById('support-all');
const supportMore = document.getElementById('support-more');
let nextCursor = null;
function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}
function supportItem(request) {
  const item = element('article', undefined, 'request');
  item.setAttribute('aria-label', 'Support request ' + request.id);
  item.append(element('h3', '#' + request.id + ' · ' + (TOPICS[request.topic] || request.topic)));
  item.append(element('div', 'From ' + request.email + (request.uid ? ' (account ' + request.uid + ')' : ' (signed out)') +
    ' · ' + new Date(request.createdAt).toLocaleString(), 'meta'));
  item.append(element('p', request.message));
  if (request.status === 'answered') {
    item.append(element('div', 'Answered ' + new Date(request.answeredAt).toLocaleString() + ' by ' + request.answeredBy, 'meta'));
    if (request.reply !== null) item.append(element('p', request.reply));
    return item;
  }
  const label = element('label', 'Reply to ' + request.email + ' (emailed; leave empty to mark answered without one)');
  const reply = element('textarea');
  reply.rows = 4;
  label.append(reply);
  const button = element('button', 'Mark answered');
  button.type = 'button';
  const outcome = element('span', '', 'meta');
  outcome.setAttribute('role', 'status');
  button.addEventListener('click', async () => {
    button.disabled = true;
    const text = reply.value.trim();
    const response = await fetch('/admin/api/support/' + request.id + '/answer', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify(text === '' ? {} : { reply: text }) });
    const body = await response.json().catch(() => ({}));
    if (response.ok) { item.replaceWith(supportItem(body)); return; }
    button.disabled = false;
    outcome.textContent = (body.error && body.error.message) || ('Failed (' + response.status + ')');
  });
  item.append(label, button, outcome);
  return item;
}
async function loadSupport(more) {
  if (!more) { supportList.replaceChildren(); nextCursor = null; }
  const query = '?status=' + (supportAll.checked ? 'all' : 'open') + (more && nextCursor ? '&cursor=' + nextCursor : '');
  const response = await fetch('/admin/api/support' + query);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    supportMore.hidden = true;
    supportStatus.textContent = response.status === 401 || response.status === 403
      ? 'Sign in as an administrator to see support requests.'
      : (body.error && body.error.message) || ('Could not load support requests (' + response.status + ')');
    return;
  }
  for (const request of body.items) supportList.append(supportItem(request));
  nextCursor = body.nextCursor;
  supportMore.hidden = nextCursor === null;
  supportStatus.textContent = supportList.children.length === 0
    ? (supportAll.checked ? 'No support requests.' : 'No open support requests.') : '';
}
const VOLUMES = ${JSON.stringify(SALES_VOLUME_LABELS)};
const salesStatus = document.getElementById('sales-status');
const salesList = document.getElementById('sales-list');
async function loadSales() {
  salesList.replaceChildren();
  const response = await fetch('/admin/api/sales?limit=50');
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    salesStatus.textContent = response.status === 401 || response.status === 403
      ? 'Sign in as an administrator to see sales requests.'
      : (body.error && body.error.message) || ('Could not load sales requests (' + response.status + ')');
    return;
  }
  for (const request of body.items) {
    const item = element('article', undefined, 'request');
    item.setAttribute('aria-label', 'Sales request ' + request.id);
    item.append(element('h3', '#' + request.id + ' · ' + request.company + ' · ' + (VOLUMES[request.volume] || request.volume)));
    item.append(element('div', 'From ' + request.email + (request.uid ? ' (account ' + request.uid + ')' : ' (signed out)') +
      ' · ' + new Date(request.createdAt).toLocaleString(), 'meta'));
    item.append(element('p', request.message));
    salesList.append(item);
  }
  salesStatus.textContent = salesList.children.length === 0 ? 'No sales requests.' : '';
}
loadSales();
supportAll.addEventListener('change', () => loadSupport());
supportMore.addEventListener('click', () => loadSupport(true));
loadSupport();
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
