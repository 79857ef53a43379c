/**
 * Lua scripts: each runs atomically inside Redis, so concurrent agents never interleave
 * inside an append, a compression or an end. A session is one hash:
 *   seq      the last sequence number given out
 *   budget   the session's token budget override
 *   summary  the four-part summary (JSON), rev: its revision
 *   i:<seq>  an item (JSON), id:<item id> → its seq (so a retried append is stored once)
 *
 * Every write carries a deadline in Redis's own clock (milliseconds): a script that starts after
 * it changes nothing and answers -1. A Redis that was frozen runs the commands queued on its
 * connections when it resumes, long after the caller was told the write failed; without the
 * deadline a failed append landed in the session later.
 */

const EXPIRED = `
local function expired(deadline)
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > tonumber(deadline)
end
`;

/** KEYS[1] session; ARGV: item id, item JSON, ttl seconds, budget or "", deadline. Returns the seq. */
export const APPEND = `${EXPIRED}
if expired(ARGV[5]) then return -1 end
local key = KEYS[1]
local existing = redis.call('HGET', key, 'id:' .. ARGV[1])
if existing then
  redis.call('EXPIRE', key, ARGV[3])
  return tonumber(existing)
end
local seq = redis.call('HINCRBY', key, 'seq', 1)
redis.call('HSET', key, 'i:' .. seq, ARGV[2], 'id:' .. ARGV[1], seq)
if ARGV[4] ~= '' then redis.call('HSET', key, 'budget', ARGV[4]) end
redis.call('EXPIRE', key, ARGV[3])
return seq
`;

/** KEYS[1] session; ARGV: budget, ttl seconds, deadline. Returns 1, or 0 when there is no session. */
export const SET_BUDGET = `${EXPIRED}
if expired(ARGV[3]) then return -1 end
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'budget', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
`;

const REMOVE_ITEM = `
local function remove_item(key, seq)
  local raw = redis.call('HGET', key, 'i:' .. seq)
  if not raw then return end
  redis.call('HDEL', key, 'i:' .. seq, 'id:' .. cjson.decode(raw).id)
end
`;

/**
 * KEYS[1] session; ARGV: expected revision, summary JSON, ttl seconds, deadline, seq… Replaces
 * exactly those items by the summary if the revision still matches and every item is still there.
 */
export const COMPACT = `${REMOVE_ITEM}${EXPIRED}
if expired(ARGV[4]) then return -1 end
local key = KEYS[1]
if redis.call('EXISTS', key) == 0 then return 0 end
local rev = tonumber(redis.call('HGET', key, 'rev') or '0')
if rev ~= tonumber(ARGV[1]) then return 0 end
for i = 5, #ARGV do
  if redis.call('HEXISTS', key, 'i:' .. ARGV[i]) == 0 then return 0 end
end
for i = 5, #ARGV do remove_item(key, ARGV[i]) end
redis.call('HSET', key, 'summary', ARGV[2], 'rev', rev + 1)
redis.call('EXPIRE', key, ARGV[3])
return 1
`;

/**
 * KEYS[1] session; ARGV: the snapshot's revision, deadline, its seqs… Removes what an ended
 * session's snapshot held; the session goes when nothing appended since is left in it.
 */
export const DISCARD = `${REMOVE_ITEM}${EXPIRED}
if expired(ARGV[2]) then return -1 end
local key = KEYS[1]
for i = 3, #ARGV do remove_item(key, ARGV[i]) end
local rev = tonumber(redis.call('HGET', key, 'rev') or '0')
if rev == tonumber(ARGV[1]) then redis.call('HDEL', key, 'summary') end
for _, field in ipairs(redis.call('HKEYS', key)) do
  if field == 'summary' or string.sub(field, 1, 2) == 'i:' then return 0 end
end
redis.call('DEL', key)
return 1
`;
