// Playground: a chat-completions client in the browser. Model from /v1/models, managed or custom key, an
// optional pinned account, stream toggle, a file attachment, tools; reasoning and tool calls appear as they
// stream, and Stop aborts the request. Its requests carry `X-Svc-Source: admin-tester` (never recorded in chat
// history, D12.6) unless the operator asks to keep the conversation.
import { useEffect, useRef, useState } from "preact/hooks";
import { errorMessage, api } from "../api";
import { Alert, Field, errText } from "../components";
import { t } from "../i18n";
import { sseData } from "../sse";
// The business answers as the server documents them, and the admin lists the pickers read (type-only imports:
// nothing of the server enters the bundle).
import type { ChatCompletion, ChatCompletionChunk, ModelList } from "../../../surfaces/public-docs";
import type { ConfigView } from "../../../surfaces/admin/answer-schema";
import type { AccountsPage } from "../../../surfaces/admin/answer-schema-ops";

/** A tool call as the transcript shows it: the pieces of a streamed call joined by index. */
interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One turn of the transcript (the page's own state, not an answer of the server). */
interface Turn {
  role: "user" | "assistant";
  content: string;
  reasoning?: string;
  tool_calls?: ToolCall[];
  file?: string;
  finish?: string;
  error?: string;
}

const SAMPLE_TOOLS = JSON.stringify(
  [
    {
      type: "function",
      function: {
        name: "get_weather",
        description: "Current weather for a city",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
    },
  ],
  null,
  2,
);

function readAsDataUrl(f: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(f);
  });
}

export function Playground() {
  const [models, setModels] = useState<string[]>([]);
  const [model, setModel] = useState("core-v4-flash");
  const [keys, setKeys] = useState<{ key: string; name: string }[]>([]);
  const [keyChoice, setKeyChoice] = useState("");
  const [customKey, setCustomKey] = useState("");
  const [accounts, setAccounts] = useState<string[]>([]);
  const [pinned, setPinned] = useState("");
  const [stream, setStream] = useState(true);
  const [useTools, setUseTools] = useState(false);
  const [tools, setTools] = useState(SAMPLE_TOOLS);
  const [record, setRecord] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [input, setInput] = useState("");
  const [turns, setTurns] = useState<Turn[]>([]);
  const [running, setRunning] = useState(false);
  const [err, setErr] = useState("");
  const abort = useRef<AbortController | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    fetch("/v1/models", { cache: "no-store" })
      .then((r) => r.json())
      .then((b: ModelList) => setModels((b.data ?? []).map((m) => m.id)))
      .catch(() => {});
    api<ConfigView>("/admin/config").then((c) => {
      setKeys(c.api_keys);
      if (c.api_keys[0]) setKeyChoice(c.api_keys[0].key);
      else setKeyChoice("custom");
    }, () => {});
    api<AccountsPage>("/admin/accounts?page=1&page_size=5000").then((r) => setAccounts(r.items.map((a) => a.identifier)), () => {});
  }, []);

  const key = keyChoice === "custom" ? customKey : keyChoice;

  const send = async (e: Event) => {
    e.preventDefault();
    setErr("");
    if (!key) {
      setErr(t("Choose a key or enter a custom one."));
      return;
    }
    let toolList: unknown[] | undefined;
    if (useTools) {
      try {
        toolList = JSON.parse(tools);
        if (!Array.isArray(toolList)) throw new Error();
      } catch {
        setErr(t("Tools must be a JSON array."));
        return;
      }
    }
    const user: Turn = { role: "user", content: input, file: file?.name };
    const history = [...turns, user];
    const messages = await Promise.all(
      history.map(async (m, i) => {
        if (m.role === "assistant") {
          const msg: Record<string, unknown> = { role: "assistant", content: m.content };
          if (m.tool_calls?.length) msg.tool_calls = m.tool_calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
          return msg;
        }
        if (i === history.length - 1 && file) {
          return { role: "user", content: [{ type: "text", text: m.content }, { type: "file", file: { filename: file.name, file_data: await readAsDataUrl(file) } }] };
        }
        return { role: "user", content: m.content };
      }),
    );
    const answer: Turn = { role: "assistant", content: "", reasoning: "", tool_calls: [] };
    setTurns([...history, answer]);
    setInput("");
    setFile(null);
    if (fileInput.current) fileInput.current.value = "";
    setRunning(true);
    const ctrl = new AbortController();
    abort.current = ctrl;
    const update = () => setTurns([...history, { ...answer, tool_calls: [...(answer.tool_calls ?? [])] }]);
    try {
      const headers: Record<string, string> = { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "X-Svc-Source": record ? "console-playground" : "admin-tester" };
      if (pinned) headers["X-Svc-Target-Account"] = pinned;
      const body: Record<string, unknown> = { model, stream, messages };
      if (toolList) body.tools = toolList;
      const res = await fetch("/v1/chat/completions", { method: "POST", headers, body: JSON.stringify(body), signal: ctrl.signal, cache: "no-store" });
      if (!res.ok) {
        const text = await res.text();
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {}
        throw new Error(errorMessage(parsed, res.status));
      }
      if (stream && res.body) {
        for await (const chunk of sseData<ChatCompletionChunk>(res.body)) {
          const choice = chunk.choices?.[0];
          const d = choice?.delta;
          if (typeof d?.content === "string") answer.content += d.content;
          if (typeof d?.reasoning_content === "string") answer.reasoning += d.reasoning_content;
          for (const tc of d?.tool_calls ?? []) {
            const idx = typeof tc.index === "number" ? tc.index : 0;
            const calls = answer.tool_calls!;
            calls[idx] ??= { id: "", name: "", arguments: "" };
            if (tc.id) calls[idx]!.id = tc.id;
            if (tc.function?.name) calls[idx]!.name += tc.function.name;
            if (tc.function?.arguments) calls[idx]!.arguments += tc.function.arguments;
          }
          if (choice?.finish_reason) answer.finish = choice.finish_reason;
          update();
        }
      } else {
        const b: ChatCompletion = await res.json();
        const m = b.choices?.[0]?.message;
        answer.content = m?.content ?? "";
        answer.reasoning = m?.reasoning_content ?? "";
        answer.tool_calls = (m?.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function?.name ?? "", arguments: c.function?.arguments ?? "" }));
        answer.finish = b.choices?.[0]?.finish_reason ?? undefined;
        update();
      }
    } catch (e) {
      answer.error = ctrl.signal.aborted ? t("Stopped.") : errText(e);
      update();
    } finally {
      abort.current = null;
      setRunning(false);
    }
  };

  return (
    <div class="playground">
      <form class="card form play-settings" onSubmit={(e) => e.preventDefault()}>
        <Field label={t("Model")}>
          <select name="model" value={model} onChange={(e) => setModel(e.currentTarget.value)}>
            {(models.includes(model) ? models : [model, ...models]).map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t("Key")}>
          <select name="key" value={keyChoice} onChange={(e) => setKeyChoice(e.currentTarget.value)}>
            {keys.map((k) => (
              <option key={k.key} value={k.key}>
                {k.name || `${k.key.slice(0, 6)}…`}
              </option>
            ))}
            <option value="custom">{t("Custom key (pass-through)")}</option>
          </select>
        </Field>
        {keyChoice === "custom" ? (
          <Field label={t("Custom key")}>
            <input name="custom-key" type="password" autoComplete="off" value={customKey} onInput={(e) => setCustomKey(e.currentTarget.value)} />
          </Field>
        ) : null}
        <Field label={t("Pin an account")}>
          <select name="account" value={pinned} onChange={(e) => setPinned(e.currentTarget.value)}>
            <option value="">{t("Any (rotation)")}</option>
            {accounts.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </Field>
        <label class="check">
          <input type="checkbox" name="stream" checked={stream} onChange={(e) => setStream(e.currentTarget.checked)} />
          {t("Stream")}
        </label>
        <label class="check">
          <input type="checkbox" name="tools-on" checked={useTools} onChange={(e) => setUseTools(e.currentTarget.checked)} />
          {t("Offer tools")}
        </label>
        {useTools ? (
          <Field label={t("Tools (JSON)")}>
            <textarea name="tools" rows={8} class="mono" value={tools} onInput={(e) => setTools(e.currentTarget.value)} />
          </Field>
        ) : null}
        <label class="check">
          <input type="checkbox" name="record" checked={record} onChange={(e) => setRecord(e.currentTarget.checked)} />
          {t("Save to chat history")}
        </label>
        <button type="button" onClick={() => setTurns([])} disabled={running}>
          {t("Clear conversation")}
        </button>
      </form>
      <section class="chat" aria-live="polite">
        {turns.length === 0 ? <p class="muted">{t("Send a message to try the gateway as a client would.")}</p> : null}
        {turns.map((m, i) => (
          <article key={i} class={`msg msg-${m.role}`} data-role={m.role}>
            <header class="muted small">{m.role === "user" ? t("You") : t("Assistant")}</header>
            {m.reasoning ? (
              <details open class="reasoning">
                <summary>{t("Reasoning")}</summary>
                <pre data-testid="reasoning">{m.reasoning}</pre>
              </details>
            ) : null}
            {m.content ? <div class="msg-text">{m.content}</div> : null}
            {m.file ? <div class="muted small">{t("Attached: {f}", { f: m.file })}</div> : null}
            {(m.tool_calls ?? []).map((c) => (
              <div class="tool-call" key={c.id || c.name} data-testid="tool-call">
                <span class="badge badge-info">{t("Tool call")}</span> <code>{c.name}</code>
                <pre>{c.arguments}</pre>
              </div>
            ))}
            {m.finish ? <div class="muted small">finish_reason: {m.finish}</div> : null}
            {m.error ? <Alert>{m.error}</Alert> : null}
          </article>
        ))}
        <form class="composer" onSubmit={send}>
          <textarea
            name="message"
            rows={3}
            placeholder={t("Message")}
            aria-label={t("Message")}
            value={input}
            onInput={(e) => setInput(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) (e.currentTarget.form as HTMLFormElement).requestSubmit();
            }}
          />
          <div class="row">
            {/* The native file button speaks the browser's language; this label speaks the console's. */}
            <label class="file button">
              {file ? t("Attached: {f}", { f: file.name }) : t("Attach a file")}
              <input ref={fileInput} type="file" name="file" class="sr-only" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
            </label>
            {running ? (
              <button type="button" class="danger" onClick={() => abort.current?.abort()} data-testid="stop">
                {t("Stop")}
              </button>
            ) : (
              <button type="submit" class="primary" disabled={!input.trim()}>
                {t("Send")}
              </button>
            )}
          </div>
          <Alert>{err}</Alert>
        </form>
      </section>
    </div>
  );
}
