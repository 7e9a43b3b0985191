// Sign in with the admin key or the admin password (POST /admin/login); the token goes to sessionStorage,
// or localStorage with "remember me".
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { api } from "../api";
import { Alert, Field } from "../components";
import { useSubmit } from "../form";
import { t } from "../i18n";
import { setToken } from "../session";
// The answers as the server documents them (type-only imports: nothing of the server enters the bundle).
import type { LoginAnswer } from "../../../surfaces/admin/answer-schema";

export function SignIn(props: { onSignedIn: () => void; toggles: ComponentChildren }) {
  const [secret, setSecret] = useState("");
  const [remember, setRemember] = useState(false);
  const form = useSubmit(async () => {
    const r = await api<LoginAnswer>("/admin/login", { method: "POST", body: { admin_key: secret } });
    setToken(r.token, remember);
    props.onSignedIn();
  });

  return (
    <main class="signin">
      <div class="signin-top">{props.toggles}</div>
      <form class="card signin-card" onSubmit={form.run}>
        <h1>svc-gateway</h1>
        <p class="muted">{t("Sign in to the admin console")}</p>
        <Field label={t("Admin key or password")}>
          <input type="password" name="secret" autoComplete="current-password" required autoFocus value={secret} onInput={(e) => setSecret(e.currentTarget.value)} />
        </Field>
        <label class="check">
          <input type="checkbox" name="remember" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
          {t("Remember me on this browser")}
        </label>
        <Alert>{form.err}</Alert>
        <button type="submit" class="primary" disabled={form.busy || !secret}>
          {form.busy ? t("Signing in…") : t("Sign in")}
        </button>
      </form>
    </main>
  );
}
