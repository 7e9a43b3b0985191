// Sign in with the admin key or the admin password (POST /admin/login); the token goes to sessionStorage,
// or localStorage with "remember me".
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { api } from "../api";
import { Alert, Field } from "../components";
import { t } from "../i18n";
import { setToken } from "../session";

export function SignIn(props: { onSignedIn: () => void; toggles: ComponentChildren }) {
  const [secret, setSecret] = useState("");
  const [remember, setRemember] = useState(false);
  const [err, setErr] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setErr("");
    try {
      const r = await api<{ token: string }>("/admin/login", { method: "POST", body: { admin_key: secret } });
      setToken(r.token, remember);
      props.onSignedIn();
    } catch (e) {
      setErr((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="signin">
      <div class="signin-top">{props.toggles}</div>
      <form class="card signin-card" onSubmit={submit}>
        <h1>svc-gateway</h1>
        <p class="muted">{t("Sign in to the admin console")}</p>
        <Field label={t("Admin key or password")}>
          <input type="password" name="secret" autoComplete="current-password" required autoFocus value={secret} onInput={(e) => setSecret(e.currentTarget.value)} />
        </Field>
        <label class="check">
          <input type="checkbox" name="remember" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
          {t("Remember me on this browser")}
        </label>
        <Alert>{err}</Alert>
        <button type="submit" class="primary" disabled={busy || !secret}>
          {busy ? t("Signing in…") : t("Sign in")}
        </button>
      </form>
    </main>
  );
}
