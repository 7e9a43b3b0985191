// The Lua of the shared pool, kept as text in a module so `bun build --compile` carries it in the binary.
export const POOL_SCRIPT = String.raw`
-- The shared pool of managed accounts (issue 21), one script so every decision is atomic across instances.
-- It mirrors src/accounts/pool.ts: least-recently-acquired rotation, per-account and global limits, one FIFO
-- queue whose waiters (from any instance) are served oldest first by whoever frees or adds a slot.
--
-- KEYS: 1 leases (zset lease -> expiry ms)   2 lease_acct (hash lease -> account)   3 stamps (hash)
--       4 stampseq   5 cooldown (hash account -> until ms)   6 heldout (hash account -> until ms)
--       7 queue (zset ticket -> arrival seq)   8 tickets (hash ticket -> json)   9 qseq
--       10 instances (zset instance -> heartbeat expiry ms)
-- ARGV: 1 op  2 instance  3 accounts ("\n"-joined, config order)  4 account max  5 global max
--       6 lease ttl ms  7 max queue  8 grant channel prefix  9.. op arguments
local op, inst = ARGV[1], ARGV[2]
local accounts = {}
for a in string.gmatch(ARGV[3], "[^\n]+") do accounts[#accounts + 1] = a end
local accountMax, globalMax = tonumber(ARGV[4]), tonumber(ARGV[5])
local ttl, maxQueue, channel = tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[8]
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local function removeLease(id)
  if redis.call("ZREM", KEYS[1], id) == 1 then
    redis.call("HDEL", KEYS[2], id)
    return true
  end
  redis.call("HDEL", KEYS[2], id)
  return false
end

-- Leases whose holder stopped renewing them (the instance died) free their slots.
for _, id in ipairs(redis.call("ZRANGEBYSCORE", KEYS[1], "-inf", now)) do removeLease(id) end
-- Instances beat on every call; one silent for a whole TTL is dead (its waiters are dropped below).
redis.call("ZREMRANGEBYSCORE", KEYS[10], "-inf", now)
-- The heartbeat lapses sooner than leases (5 s, or the lease TTL when shorter): a dead instance's waiters
-- must leave the queue before slots are handed to them, while a live one beats every 200 ms.
redis.call("ZADD", KEYS[10], now + math.min(ttl, 5000), inst)

local inflight = {}
for _, a in ipairs(redis.call("HVALS", KEYS[2])) do inflight[a] = (inflight[a] or 0) + 1 end
local total = redis.call("ZCARD", KEYS[1])

local function active(hash, a)
  local u = redis.call("HGET", hash, a)
  return u and tonumber(u) > now
end

local function eligible(a, pinned, excl)
  if (inflight[a] or 0) >= accountMax then return false end
  if active(KEYS[6], a) then return false end
  if excl[a] then return false end
  if not pinned and active(KEYS[5], a) then return false end
  return true
end

local function pick(tk)
  if total >= globalMax then return nil end
  local excl = {}
  for _, x in ipairs(tk.x or {}) do excl[x] = true end
  if tk.p and tk.p ~= "" then
    if eligible(tk.p, true, excl) then return tk.p end
    return nil
  end
  local best, bestStamp = nil, math.huge
  for _, a in ipairs(accounts) do
    if eligible(a, false, excl) then
      local s = tonumber(redis.call("HGET", KEYS[3], a) or "0")
      if s < bestStamp then best, bestStamp = a, s end
    end
  end
  return best
end

local function grant(ticket, tk, a)
  redis.call("ZADD", KEYS[1], now + ttl, ticket)
  redis.call("HSET", KEYS[2], ticket, a)
  redis.call("HSET", KEYS[3], a, redis.call("INCR", KEYS[4]))
  redis.call("ZREM", KEYS[7], ticket)
  redis.call("HDEL", KEYS[8], ticket)
  inflight[a] = (inflight[a] or 0) + 1
  total = total + 1
  redis.call("PUBLISH", channel .. tk.i, ticket .. "\n" .. a)
end

-- The hand-off: walk waiters oldest first, give each one that fits a free slot. Waiters of instances that
-- stopped beating are dropped (their clients are gone with them).
local alive = {}
local function isAlive(i)
  if alive[i] == nil then
    local s = redis.call("ZSCORE", KEYS[10], i)
    alive[i] = s ~= false and s ~= nil
  end
  return alive[i]
end
-- A queued ticket of a live instance; a missing one or one of a dead instance is dropped (nil).
local function liveTicket(ticket)
  local raw = redis.call("HGET", KEYS[8], ticket)
  local tk = raw and cjson.decode(raw)
  if tk and isAlive(tk.i) then return tk end
  redis.call("ZREM", KEYS[7], ticket)
  redis.call("HDEL", KEYS[8], ticket)
  return nil
end
-- Drops the waiters of dead instances even while every slot is taken (dispatch stops early then).
local function dropDeadWaiters()
  for _, ticket in ipairs(redis.call("ZRANGE", KEYS[7], 0, -1)) do liveTicket(ticket) end
end
local function dispatch()
  if total >= globalMax then return end
  for _, ticket in ipairs(redis.call("ZRANGE", KEYS[7], 0, -1)) do
    local tk = liveTicket(ticket)
    if tk then
      local a = pick(tk)
      if a then grant(ticket, tk, a) end
      if total >= globalMax then return end
    end
  end
end

local function snapshot(result)
  local inf, cd, held = {}, {}, {}
  for a, n in pairs(inflight) do inf[#inf + 1] = a; inf[#inf + 1] = tostring(n) end
  local c = redis.call("HGETALL", KEYS[5])
  for i = 1, #c, 2 do
    local left = tonumber(c[i + 1]) - now
    if left > 0 then cd[#cd + 1] = c[i]; cd[#cd + 1] = tostring(left) end
  end
  local h = redis.call("HGETALL", KEYS[6])
  for i = 1, #h, 2 do
    if tonumber(h[i + 1]) > now then held[#held + 1] = h[i] end
  end
  return { result, tostring(total), inf, cd, held, tostring(redis.call("ZCARD", KEYS[7])) }
end

if op == "acquire" then
  local ticket = ARGV[9]
  local tk = { i = inst, p = ARGV[10], x = {} }
  for x in string.gmatch(ARGV[11], "[^\n]+") do tk.x[#tk.x + 1] = x end
  local waiting = redis.call("ZCARD", KEYS[7])
  redis.call("ZADD", KEYS[7], redis.call("INCR", KEYS[9]), ticket)
  redis.call("HSET", KEYS[8], ticket, cjson.encode(tk))
  dispatch()
  local a = redis.call("HGET", KEYS[2], ticket)
  if a then return snapshot({ "ok", a }) end
  if waiting >= maxQueue then
    redis.call("ZREM", KEYS[7], ticket)
    redis.call("HDEL", KEYS[8], ticket)
    return snapshot({ "full" })
  end
  return snapshot({ "wait" })
elseif op == "release" then
  removeLease(ARGV[9])
  local rebuilt = {}
  for _, a in ipairs(redis.call("HVALS", KEYS[2])) do rebuilt[a] = (rebuilt[a] or 0) + 1 end
  inflight = rebuilt
  total = redis.call("ZCARD", KEYS[1])
  dispatch()
  return snapshot({ "released" })
elseif op == "cancel" then
  -- A waiter that gave up: out of the queue, or, when a slot reached it meanwhile, the slot back.
  local ticket = ARGV[9]
  if redis.call("ZREM", KEYS[7], ticket) == 1 then
    redis.call("HDEL", KEYS[8], ticket)
    return snapshot({ "cancelled" })
  end
  local a = redis.call("HGET", KEYS[2], ticket)
  if a and removeLease(ticket) then
    inflight[a] = inflight[a] - 1
    total = total - 1
    dispatch()
    return snapshot({ "released" })
  end
  return snapshot({ "gone" })
elseif op == "tick" then
  -- Periodic, every instance: renew the leases it holds ("id\taccount"; one Redis forgot, after a restart,
  -- is put back because its stream still runs on core and must count against the limits); put back at the
  -- end of the queue any of its waiters ({t, p, x}) the queue lost (dropped during a stall longer than the
  -- heartbeat, or a Redis restart); the hand-off; then which of its waiters hold a slot.
  local pending = {}
  for i = 9, #ARGV do
    if string.sub(ARGV[i], 1, 1) == "{" then
      local w = cjson.decode(ARGV[i])
      pending[#pending + 1] = w.t
      if not redis.call("HGET", KEYS[2], w.t) and not redis.call("ZSCORE", KEYS[7], w.t) then
        redis.call("ZADD", KEYS[7], redis.call("INCR", KEYS[9]), w.t)
        redis.call("HSET", KEYS[8], w.t, cjson.encode({ i = inst, p = w.p, x = w.x }))
      end
    else
      local id, a = string.match(ARGV[i], "^([^\t]+)\t(.+)$")
      if id then
        if not redis.call("ZSCORE", KEYS[1], id) then
          redis.call("HSET", KEYS[2], id, a)
          inflight[a] = (inflight[a] or 0) + 1
          total = total + 1
        end
        redis.call("ZADD", KEYS[1], now + ttl, id)
      end
    end
  end
  dropDeadWaiters()
  dispatch()
  local granted = {}
  for _, ticket in ipairs(pending) do
    local a = redis.call("HGET", KEYS[2], ticket)
    if a then granted[#granted + 1] = ticket; granted[#granted + 1] = a end
  end
  return snapshot({ "tick", granted })
elseif op == "cooldown" then
  local ms = tonumber(ARGV[10])
  if ms > 0 then redis.call("HSET", KEYS[5], ARGV[9], now + ms) else redis.call("HDEL", KEYS[5], ARGV[9]) end
  dispatch()
  return snapshot({ "cooldown" })
elseif op == "hold" then
  -- Held out at most ten minutes, so an instance that died during delete_all cannot bench an account forever.
  if ARGV[10] == "1" then redis.call("HSET", KEYS[6], ARGV[9], now + 600000) else redis.call("HDEL", KEYS[6], ARGV[9]) end
  dispatch()
  return snapshot({ "hold" })
end
return redis.error_reply("unknown op " .. tostring(op))
`;
