-- wrk script: POST /games with unique game ids, random tables and increasing played_at.
--
--   wrk -t1 -c64 -d15s --timeout 30s -s bench/post_games.lua http://127.0.0.1:PORT \
--       -- LADDER SYSTEM PLAYERS TOKEN ID_PREFIX SEED START_EPOCH
--
-- SYSTEM is "fundox" (4-player tables, ranks 1..4) or "naf" (2 players, each with a
-- fixed faction, event with 48 coaches). Each wrk thread owns a disjoint slice of the player
-- pool, split in two halves; rounds alternate between the halves, every round shuffles its
-- half into tables and stamps them with the round's time (START_EPOCH + 60 s per round).
-- So the games in flight at any moment almost never share a player and each player's games
-- reach the server in time order: no game is "late" (late games force a recompute, which
-- would measure something else). Late games are still counted (recomputed_events > 0).
--
-- done() prints one line "WRK_RESULT <json>" with the wrk summary, latency percentiles (µs),
-- the count of each HTTP status, the count of late games, and the ids that were sent but got
-- no 2xx answer (in flight when wrk stopped, or refused) so the caller can check them.

local threads = {}
local thread_count = 0

function setup(thread)
   thread_count = thread_count + 1
   thread:set("thread_index", thread_count)
   table.insert(threads, thread)
end

local FACTIONS = { "Orc", "Human", "Dwarf", "Skaven", "Lizardmen", "Chaos", "Undead", "Amazon" }

local ladder, system, token, prefix, start_epoch
local table_size
local halves = { {}, {} }
local queue = {}        -- tables still to send in the current round
local round = -1
local counter = 0
local headers

-- Read back by done() through thread:get().
statuses = {}           -- status code -> count
late = 0                -- 2xx answers whose recomputed_events is not 0
pending = {}            -- id -> true: sent, no 2xx answer seen yet
sent = 0
failures = {}           -- a few non-2xx bodies, for the report

function init(args)
   ladder = args[1]
   system = args[2]
   local players = tonumber(args[3])
   token = args[4]
   prefix = args[5]
   local seed = tonumber(args[6])
   start_epoch = tonumber(args[7])
   table_size = (system == "naf") and 2 or 4
   math.randomseed(seed + 7919 * thread_index)
   -- This thread's slice of the pool: players are p0001..pNNNN.
   local total = tonumber(args[8]) or 1
   local per = math.floor(players / total)
   local first = (thread_index - 1) * per + 1
   for i = 0, per - 1 do
      local half = (i % 2) + 1
      table.insert(halves[half], first + i)
   end
   headers = {
      ["Content-Type"] = "application/json",
      ["Authorization"] = "Bearer " .. token,
   }
end

local function shuffle(list)
   for i = #list, 2, -1 do
      local j = math.random(i)
      list[i], list[j] = list[j], list[i]
   end
end

local function next_round()
   round = round + 1
   local half = halves[(round % 2) + 1]
   shuffle(half)
   queue = {}
   for t = 0, math.floor(#half / table_size) - 1 do
      local seats = {}
      for s = 1, table_size do
         seats[s] = half[t * table_size + s]
      end
      table.insert(queue, seats)
   end
end

local function player_json(index, rank)
   local name = string.format("p%04d", index)
   if system == "naf" then
      local faction = FACTIONS[(index % #FACTIONS) + 1]
      return string.format('{"player":"%s","rank":%d,"faction":"%s"}', name, rank, faction)
   end
   return string.format('{"player":"%s","rank":%d}', name, rank)
end

request = function()
   if #queue == 0 then
      next_round()
   end
   local seats = table.remove(queue)
   counter = counter + 1
   sent = sent + 1
   local id = string.format("%s-%d-%d", prefix, thread_index, counter)
   pending[id] = true
   local players = {}
   for rank, index in ipairs(seats) do
      players[rank] = player_json(index, rank)
   end
   local played_at = os.date("!%Y-%m-%dT%H:%M:%SZ", start_epoch + 60 * round)
   local body = string.format(
      '{"ladder":"%s","id":"%s","played_at":"%s","players":[%s],"event":{"coaches":48,"major":false}}',
      ladder, id, played_at, table.concat(players, ",")
   )
   return wrk.format("POST", "/games", headers, body)
end

response = function(status, _headers, body)
   statuses[status] = (statuses[status] or 0) + 1
   if status >= 200 and status < 300 then
      local id = body:match('"id":"([^"]+)"')
      if id then
         pending[id] = nil
      end
      local recomputed = body:match('"recomputed_events":(%d+)')
      if recomputed and recomputed ~= "0" then
         late = late + 1
      end
   elseif #failures < 5 then
      table.insert(failures, string.sub(body or "", 1, 300))
   end
end

local function json_string(s)
   s = tostring(s):gsub('\\', '\\\\'):gsub('"', '\\"'):gsub('[%c]', ' ')
   return '"' .. s .. '"'
end

function done(summary, latency, _requests)
   local all_statuses = {}
   local all_pending = {}
   local all_failures = {}
   local all_late = 0
   local all_sent = 0
   for _, thread in ipairs(threads) do
      for code, count in pairs(thread:get("statuses")) do
         all_statuses[code] = (all_statuses[code] or 0) + count
      end
      for id, _ in pairs(thread:get("pending")) do
         table.insert(all_pending, json_string(id))
      end
      for _, text in ipairs(thread:get("failures")) do
         table.insert(all_failures, json_string(text))
      end
      all_late = all_late + thread:get("late")
      all_sent = all_sent + thread:get("sent")
   end
   local status_parts = {}
   for code, count in pairs(all_statuses) do
      table.insert(status_parts, string.format('"%d":%d', code, count))
   end
   local pct = {}
   for _, p in ipairs({ 50, 90, 99, 99.9 }) do
      table.insert(pct, string.format('"%s":%d', tostring(p), latency:percentile(p)))
   end
   local e = summary.errors
   io.write("WRK_RESULT ", string.format(
      '{"duration_us":%d,"requests":%d,"bytes":%d,"sent":%d,'
         .. '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},'
         .. '"latency_us":{"min":%d,"mean":%.1f,"max":%d,"stdev":%.1f,"percentiles":{%s}},'
         .. '"statuses":{%s},"late":%d,"unanswered_ids":[%s],"failures":[%s]}',
      summary.duration, summary.requests, summary.bytes, all_sent,
      e.connect, e.read, e.write, e.status, e.timeout,
      latency.min, latency.mean, latency.max, latency.stdev, table.concat(pct, ","),
      table.concat(status_parts, ","), all_late, table.concat(all_pending, ","),
      table.concat(all_failures, ",")
   ), "\n")
end
