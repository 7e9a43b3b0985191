// The two OpenAPI documents (issue 30 item 8): the public one is an ordinary link (no credential), the admin one
// needs the console's token, which a link cannot send, so it is fetched and handed to the browser as a download.
import { useState } from "preact/hooks";
import { api } from "../api";
import { Alert, errText } from "../components";
import { t } from "../i18n";

export function ApiReference() {
  const [err, setErr] = useState("");
  const download = async () => {
    setErr("");
    try {
      const doc = await api<unknown>("/admin/openapi.json");
      const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = "svc-gateway-admin-openapi.json";
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      setErr(errText(e));
    }
  };
  return (
    <section class="card form" data-group="api-reference">
      <h2>{t("API reference")}</h2>
      <div class="row wrap">
        <a class="button" href="/openapi.json" target="_blank" rel="noopener">
          {t("Public API (OpenAPI)")}
        </a>
        <button type="button" onClick={() => void download()}>
          {t("Download admin API reference")}
        </button>
      </div>
      <Alert>{err}</Alert>
    </section>
  );
}
