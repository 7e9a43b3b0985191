// Settings card: the admin password; a change signs every console out, this one included.
import { useState } from "preact/hooks";
import { api } from "../api";
import { Alert, Field } from "../components";
import { SubmitForm, useSubmit } from "../form";
import { t } from "../i18n";
import { clearToken } from "../session";

export function Password(props: { warn: boolean }) {
  const [pw, setPw] = useState("");
  const [pw2, setPw2] = useState("");
  const form = useSubmit(async () => {
    if (pw !== pw2) throw new Error(t("The two passwords differ."));
    await api("/admin/settings/password", { method: "POST", body: { new_password: pw } });
    // Every earlier token is now invalid, this one included: sign in again with the new password.
    clearToken();
    location.reload();
  });
  return (
    <SubmitForm submit={form} class="card form" group="password" label={t("Change password")} disabled={!pw}>
      <h2>{t("Admin password")}</h2>
      {props.warn ? <Alert kind="info">{t("No password is set and the admin key was generated at start-up: set a password.")}</Alert> : null}
      <div class="grid">
        <Field label={t("New password")} hint={t("8 characters or more. Every open console signs out.")}>
          <input type="password" name="new-password" autoComplete="new-password" value={pw} onInput={(e) => setPw(e.currentTarget.value)} />
        </Field>
        <Field label={t("Repeat the password")}>
          <input type="password" name="repeat-password" autoComplete="new-password" value={pw2} onInput={(e) => setPw2(e.currentTarget.value)} />
        </Field>
      </div>
    </SubmitForm>
  );
}
