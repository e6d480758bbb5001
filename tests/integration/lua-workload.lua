-- lua-workload.lua: a deterministic workload for the Lua interpreter
-- (run-project's lua5.4 project; the Debian source has no test suite).
-- It exercises what Lua programs spend their time on: tables as arrays
-- and as hashes, strings (building, pattern matching, formatting),
-- closures and upvalues, metatables, coroutines, integer and float
-- arithmetic, sorting and the garbage collector.  Every section prints a
-- checksum; the plain and the instrumented interpreter must print the
-- same lines.

local scale = tonumber(arg and arg[1]) or 1

-- A linear congruential generator: the same numbers on every run.
local seed = 12345
local function rand(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
end

-- Arrays: sieve of Eratosthenes, prefix sums.
local function sieve(n)
  local composite, count = {}, 0
  for i = 2, n do
    if not composite[i] then
      count = count + 1
      for j = i * i, n, i do composite[j] = true end
    end
  end
  return count
end
print("sieve", sieve(200000 * scale))

local function prefix(n)
  local a = {}
  for i = 1, n do a[i] = rand(1000) end
  for i = 2, n do a[i] = a[i] + a[i - 1] end
  return a[n]
end
print("prefix", prefix(100000 * scale))

-- Hashes: word counts over generated text.
local syllables = { "ka", "lo", "mi", "zu", "re", "ta", "no", "shi", "ve", "po" }
local function word()
  local parts = {}
  for i = 1, 1 + rand(3) do parts[i] = syllables[1 + rand(#syllables)] end
  return table.concat(parts)
end
local counts, distinct = {}, 0
for _ = 1, 60000 * scale do
  local w = word()
  if not counts[w] then distinct = distinct + 1 end
  counts[w] = (counts[w] or 0) + 1
end
local keys = {}
for k in pairs(counts) do keys[#keys + 1] = k end
table.sort(keys, function(a, b)
  if counts[a] ~= counts[b] then return counts[a] > counts[b] end
  return a < b
end)
print("words", distinct, keys[1], counts[keys[1]], keys[#keys])

-- Strings: formatting, patterns, gsub.
local buf = {}
for i = 1, 20000 * scale do
  buf[#buf + 1] = string.format("%05d:%x:%.3f", i, i * 7, i / 13)
end
local text = table.concat(buf, ";")
local digits, hexes = 0, 0
for d in text:gmatch("%d+:") do digits = digits + #d end
for h in text:gmatch(":(%x+):") do hexes = hexes + tonumber(h, 16) % 97 end
local swapped = text:sub(1, 2000):gsub("(%d+):(%x+)", "%2=%1")
print("strings", #text, digits, hexes, #swapped, swapped:sub(1, 24))

-- Closures and upvalues: counters and composition.
local function counter()
  local n = 0
  return function(k) n = n + k; return n end
end
local cs = {}
for i = 1, 100 do cs[i] = counter() end
local total = 0
for r = 1, 2000 * scale do
  local c = cs[1 + r % 100]
  total = total + c(r % 7)
end
local function compose(f, g) return function(x) return f(g(x)) end end
local inc = function(x) return x + 1 end
local f = inc
for _ = 1, 200 do f = compose(f, inc) end
print("closures", total, f(0))

-- Metatables: a 2-D vector type with operators.
local Vec = {}
Vec.__index = Vec
local function vec(x, y) return setmetatable({ x = x, y = y }, Vec) end
Vec.__add = function(a, b) return vec(a.x + b.x, a.y + b.y) end
Vec.__mul = function(a, s) return vec(a.x * s, a.y * s) end
Vec.__eq = function(a, b) return a.x == b.x and a.y == b.y end
function Vec:dot(b) return self.x * b.x + self.y * b.y end
local acc = vec(0, 0)
for i = 1, 50000 * scale do
  acc = acc + vec(i % 17, -(i % 5)) * 0.5
end
print("vectors", acc.x, acc.y, acc:dot(vec(1, 2)), acc == vec(acc.x, acc.y))

-- Coroutines: a generator pipeline.
local function gen(n)
  return coroutine.wrap(function()
    for i = 1, n do coroutine.yield(i) end
  end)
end
local function filter(pred, g)
  return coroutine.wrap(function()
    for v in g do if pred(v) then coroutine.yield(v) end end
  end)
end
local s = 0
for v in filter(function(v) return v % 3 == 0 end, gen(30000 * scale)) do s = s + v end
print("coroutines", s)

-- Numbers: integer and float arithmetic, bit operations.
local ih, fh = 0, 0.0
for i = 1, 200000 * scale do
  ih = (ih ~ (i * 2654435761)) & 0xffffffff
  fh = fh + math.sin(i) * math.sqrt(i)
end
print("numbers", ih, string.format("%.6f", fh))

-- Sorting records, and garbage: many short-lived tables.
local recs = {}
for i = 1, 30000 * scale do recs[i] = { id = i, key = rand(100000), tag = syllables[1 + rand(10)] } end
table.sort(recs, function(a, b)
  if a.key ~= b.key then return a.key < b.key end
  return a.id < b.id
end)
local check = 0
for i = 1, #recs, 97 do check = (check * 31 + recs[i].id) % 1000000007 end
print("sort", recs[1].key, recs[#recs].key, check)

local live = {}
for i = 1, 100000 * scale do
  live[1 + i % 1000] = { i, tostring(i), { i } }
end
collectgarbage()
print("garbage", #live, live[1][2], live[1000][3][1])
