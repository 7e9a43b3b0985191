// Core's JSON envelope (core-upstream §4) and the simulator's conventions for failures the real protocol
// does not define (§12.2): HTTP 400 with `{"code":400,"msg":…}`, never 401/403 and never 40001–40003.

export const ok = (bizData: unknown) => ({ code: 0, msg: "", data: { biz_code: 0, biz_msg: "", biz_data: bizData } });
export const bizFail = (bizCode: number, bizMsg: string) => ({ code: 0, msg: "", data: { biz_code: bizCode, biz_msg: bizMsg, biz_data: null } });
export const invalid = (reason: string) => ({ status: 400, json: { code: 400, msg: reason, data: null } });

export interface JsonReply {
  status: number;
  json: unknown;
  /** A non-JSON body, sent instead of `json`. */
  text?: string;
}
