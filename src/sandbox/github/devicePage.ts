/**
 * The device page of the stand-in's web host (`/login/device`), where a person types the code a
 * device showed and authorizes or cancels, as on github.com/login/device. The stand-in has no
 * passwords: instead of signing in, the person picks which account of the world they are.
 */
import { normalizeUserCode, type OAuthController } from "./oauth.js";

const HTML_TYPE = "text/html; charset=utf-8";

/** One answer of the device page. */
export interface PageReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] ?? character,
  );
}

function page(title: string, body: string, status = 200): PageReply {
  return {
    status,
    headers: { "content-type": HTML_TYPE, "cache-control": "no-store" },
    body: `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)} · GitHub stand-in</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}
input,select,button{font-size:1.1rem;padding:.4rem;margin:.3rem 0}label{display:block;margin-top:1rem}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
<p><small>This is RepoScout's local GitHub stand-in: no passwords; pick the account you are.</small></p>
</body>
</html>
`,
  };
}

/** `GET /login/device`: the form, the code filled in when the link carries `?user_code=`. */
export function devicePage(oauth: OAuthController, query: URLSearchParams): PageReply {
  const code = normalizeUserCode(query.get("user_code") ?? "");
  const people = oauth
    .people()
    .map((user) => `<option value="${escapeHtml(user.login)}">${escapeHtml(user.login)}</option>`)
    .join("");
  return page(
    "Device Activation",
    `<p>Enter the code displayed on your device.</p>
<form method="post" action="/login/device">
<label>Code <input name="user_code" value="${escapeHtml(code)}" autocomplete="off" placeholder="XXXX-XXXX" maxlength="9" required autofocus></label>
<label>You are <select name="login">${people}</select></label>
<p><button type="submit" name="action" value="authorize">Authorize</button>
<button type="submit" name="action" value="cancel">Cancel</button></p>
</form>`,
  );
}

/** `POST /login/device`: authorizes or cancels the code as the chosen account. */
export function submitDevicePage(oauth: OAuthController, form: URLSearchParams): PageReply {
  const userCode = normalizeUserCode(form.get("user_code") ?? "");
  const app = oauth.appForUserCode(userCode);
  if (!app) {
    return page(
      "Device Activation",
      `<p>The code <code>${escapeHtml(userCode || "(empty)")}</code> is not valid, has expired, or was already used. ` +
        `Request a new code on your device.</p><p><a href="/login/device">Try again</a></p>`,
      404,
    );
  }
  if (form.get("action") === "cancel") {
    oauth.deny(userCode);
    return page(
      "Access denied",
      `<p>You cancelled the authorization of <strong>${escapeHtml(app.name)}</strong>. You can close this page.</p>`,
    );
  }
  const login = form.get("login") ?? "";
  try {
    oauth.approve(userCode, login);
  } catch {
    return page("Device Activation", `<p>Pick an account of the world.</p>`, 400);
  }
  return page(
    "Congratulations, you're all set!",
    `<p><strong>${escapeHtml(app.name)}</strong> is now authorized as <strong>${escapeHtml(login)}</strong>. ` +
      `Your device is now connected; you can close this page.</p>`,
  );
}
