// The input refusal sentence (core-upstream §7.11) recognised in its whitespace-free form: spaces or line breaks
// inside the key phrases do not hide it, and text without them is never taken for it.
import { describe, expect, test } from "bun:test";
import { isRefusalSentence } from "../../src/pipeline/filter-text";

const REFUSAL = "抱歉，系统检测到您当前输入的信息存在敏感内容，我无法响应您的请求，请尝试更换其他合规话题重新提问。";

describe("isRefusalSentence", () => {
  test("the sentence, also with whitespace inside its key phrases", () => {
    expect(isRefusalSentence(REFUSAL)).toBe(true);
    expect(isRefusalSentence(REFUSAL.replace("系统检测到", "系统 检测\n到").replace("敏感内容", "敏 感内容"))).toBe(true);
    expect(isRefusalSentence(` ${REFUSAL}\n`)).toBe(true);
  });

  test("text without all three phrases is not it", () => {
    expect(isRefusalSentence("hello world")).toBe(false);
    expect(isRefusalSentence("")).toBe(false);
    expect(isRefusalSentence("系统检测到 一个问题")).toBe(false);
    expect(isRefusalSentence(REFUSAL.replace("无法响应", "可以响应"))).toBe(false);
    expect(isRefusalSentence(REFUSAL.replace("系统", "系 统").replace("检测到", "检测"))).toBe(false);
  });
});
