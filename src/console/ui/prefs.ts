// Theme and language, remembered in localStorage; defaults follow the browser.
export type Theme = "light" | "dark";
export type Lang = "en" | "zh";

export function initialTheme(): Theme {
  const saved = localStorage.getItem("svc-console-theme");
  if (saved === "light" || saved === "dark") return saved;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export function initialLang(): Lang {
  const saved = localStorage.getItem("svc-console-lang");
  if (saved === "en" || saved === "zh") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}

export function applyTheme(t: Theme): void {
  document.documentElement.dataset.theme = t;
  localStorage.setItem("svc-console-theme", t);
}

export function applyLang(l: Lang): void {
  document.documentElement.lang = l === "zh" ? "zh-CN" : "en";
  localStorage.setItem("svc-console-lang", l);
}
