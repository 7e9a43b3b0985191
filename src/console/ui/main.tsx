// The console: sign-in gate, navigation (hash routes, so a reload keeps the page), theme and language.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import "./styles.css";
import { api, setUnauthorizedHandler } from "./api";
import { setLang, t } from "./i18n";
import { applyLang, applyTheme, initialLang, initialTheme, type Lang, type Theme } from "./prefs";
import { clearToken, getToken } from "./session";
import { SignIn } from "./pages/signin";
import { Overview } from "./pages/overview";
import { Accounts } from "./pages/accounts";
import { Keys } from "./pages/keys";
import { Proxies } from "./pages/proxies";
import { Playground } from "./pages/playground";
import { Conversations } from "./pages/conversations";
import { Settings } from "./pages/settings";
import { Requests } from "./pages/requests";
import { Usage } from "./pages/usage";
import { ModelsPage } from "./pages/models";
import { Audit } from "./pages/audit";

const PAGES = [
  { id: "overview", label: "Overview", view: Overview },
  { id: "accounts", label: "Accounts", view: Accounts },
  { id: "keys", label: "Keys", view: Keys },
  { id: "proxies", label: "Proxies", view: Proxies },
  { id: "playground", label: "Playground", view: Playground },
  { id: "conversations", label: "Conversations", view: Conversations },
  { id: "requests", label: "Requests", view: Requests },
  { id: "usage", label: "Usage", view: Usage },
  { id: "models", label: "Models", view: ModelsPage },
  { id: "audit", label: "Audit", view: Audit },
  { id: "settings", label: "Settings", view: Settings },
] as const;

function pageFromHash(): string {
  const id = location.hash.replace(/^#\/?/, "").split("/")[0] ?? "";
  return PAGES.some((p) => p.id === id) ? id : "overview";
}

function App() {
  const [theme, setTheme] = useState<Theme>(initialTheme);
  const [language, setLanguage] = useState<Lang>(initialLang);
  // Before anything renders: t() reads the module's language, and this render's texts must use the new one.
  setLang(language);
  const [auth, setAuth] = useState<"checking" | "in" | "out">(getToken() ? "checking" : "out");
  const [page, setPage] = useState(pageFromHash);
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => applyTheme(theme), [theme]);
  useEffect(() => {
    applyLang(language);
    document.title = t("svc-gateway console");
  }, [language]);
  useEffect(() => {
    setUnauthorizedHandler(() => setAuth("out"));
    const onHash = () => {
      setPage(pageFromHash());
      setMenuOpen(false);
    };
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);
  useEffect(() => {
    if (auth !== "checking") return;
    api("/admin/verify").then(
      () => setAuth("in"),
      () => {
        clearToken();
        setAuth("out");
      },
    );
  }, [auth]);

  const toggles = (
    <div class="toggles">
      <button type="button" class="ghost" onClick={() => setLanguage(language === "en" ? "zh" : "en")} aria-label={t("Switch language")} data-testid="lang-toggle">
        {language === "en" ? "中文" : "English"}
      </button>
      <button type="button" class="ghost" onClick={() => setTheme(theme === "light" ? "dark" : "light")} aria-label={t("Switch theme")} data-testid="theme-toggle">
        {theme === "light" ? t("Dark") : t("Light")}
      </button>
    </div>
  );

  if (auth === "checking") return <div class="center muted">{t("Checking your session…")}</div>;
  if (auth === "out") return <SignIn onSignedIn={() => setAuth("in")} toggles={toggles} />;

  const current = PAGES.find((p) => p.id === page) ?? PAGES[0];
  const View = current.view;
  return (
    <div class="shell">
      <a class="skip" href="#main">
        {t("Skip to content")}
      </a>
      <header class="topbar">
        <button type="button" class="ghost menu-button" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>
          ☰ <span class="sr-only">{t("Menu")}</span>
        </button>
        <span class="brand">svc-gateway</span>
        {toggles}
        <button
          type="button"
          class="ghost"
          data-testid="sign-out"
          onClick={() => {
            clearToken();
            setAuth("out");
          }}
        >
          {t("Sign out")}
        </button>
      </header>
      <nav id="nav" class={menuOpen ? "nav open" : "nav"} aria-label={t("Pages")}>
        {PAGES.map((p) => (
          <a key={p.id} href={`#/${p.id}`} class={p.id === page ? "active" : ""} aria-current={p.id === page ? "page" : undefined}>
            {t(p.label)}
          </a>
        ))}
      </nav>
      <main id="main" class="content" tabIndex={-1}>
        <h1>{t(current.label)}</h1>
        <View key={`${current.id}-${language}`} />
      </main>
    </div>
  );
}

render(<App />, document.getElementById("app")!);
