// The batch-import text formats of the accounts and proxies pages.
import { describe, expect, test } from "bun:test";
import { parseAccountLines, parseProxyLine, parseProxyLines } from "../../src/console/ui/import-parse";

describe("account lines", () => {
  test("email:password, mobile password, token:, comments and blank lines", () => {
    expect(parseAccountLines("a@x.test:pw1\n\n# comment\n13800138000 pw2\ntoken:abc.def\nb@x.test|p:w")).toEqual([
      { email: "a@x.test", password: "pw1" },
      { mobile: "13800138000", password: "pw2" },
      { token: "abc.def" },
      { email: "b@x.test", password: "p:w" },
    ]);
  });

  test("a JSON array is taken as is (non-objects dropped)", () => {
    expect(parseAccountLines('[{"email":"a@x.test","password":"p"}, 3, null]')).toEqual([{ email: "a@x.test", password: "p" }]);
  });

  test("a login without a password is kept (a later edit can add it)", () => {
    expect(parseAccountLines("c@x.test")).toEqual([{ email: "c@x.test" }]);
  });

  test("empty text is nothing; broken JSON throws", () => {
    expect(parseAccountLines("  \n ")).toEqual([]);
    expect(() => parseAccountLines("[{")).toThrow();
  });
});

describe("proxy lines", () => {
  test("scheme://user:pass@host:port", () => {
    expect(parseProxyLine("socks5://u%40x:p%3Aw@10.0.0.1:1080")).toEqual({ type: "socks5", host: "10.0.0.1", port: 1080, username: "u@x", password: "p:w" });
    expect(parseProxyLine("http://proxy.example:3128")).toEqual({ type: "http", host: "proxy.example", port: 3128 });
    expect(parseProxyLine("socks5h://[::1]:9050")).toEqual({ type: "socks5h", host: "[::1]", port: 9050 });
  });

  test("host:port:user:pass and host:port", () => {
    expect(parseProxyLine("1.2.3.4:8080:alice:secret")).toEqual({ type: "http", host: "1.2.3.4", port: 8080, username: "alice", password: "secret" });
    expect(parseProxyLine("1.2.3.4:8080")).toEqual({ type: "http", host: "1.2.3.4", port: 8080 });
  });

  test("several lines; an unreadable one names itself", () => {
    expect(parseProxyLines("a:1\n# skip\n\nhttp://b:2").map((p) => p.host)).toEqual(["a", "b"]);
    expect(() => parseProxyLines("a:1\nnot a proxy")).toThrow(/not a proxy/);
  });
});
