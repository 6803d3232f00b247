-- workbook.lua - one HTML workbook from the handouts (pandoc 2.17 or later; tools/workbook/build.sh).
--
-- pandoc runs this on the handouts named on its command line. Each file is read again on its
-- own, so that the same heading in two handouts ("Hints") keeps one identifier in each, and
-- every identifier gets its file's name in front: 02-stride.md's #hints becomes
-- #02-stride--hints. Links follow: "#x" inside a handout, "02-stride.md#x" and "02-stride.md"
-- (the handout itself: an empty mark with its file's name as id, at its start) from another. Everything else is
-- kept as written.

local function stem(path)
  return (path:gsub("^.*/", ""):gsub("%.md$", ""))
end

-- The new target of a link written in the handout named by self.
local function target(self, t)
  if t:match("^#") then
    return "#" .. self .. "--" .. t:sub(2)
  end
  local file, frag = t:match("^([%w%-_]+)%.md#(.+)$")
  if file then
    return "#" .. file .. "--" .. frag
  end
  file = t:match("^([%w%-_]+)%.md$")
  if file then
    return "#" .. file
  end
  return t
end

local function read(path)
  local f = assert(io.open(path, "r"))
  local text = f:read("a")
  f:close()
  return pandoc.read(text, "markdown")
end

-- A Chinese handout (handouts/zh/NAME.md) has the headings of its English twin, in the same
-- order (tests/tools/zh_sync.py), and its links keep the English fragments: each heading takes
-- the identifier of the English heading in its place. The <a id> anchors that do the same on
-- GitHub are dropped here.
local function english_ids(path)
  local twin = path:gsub("zh/([^/]+)$", "%1")
  local f = twin ~= path and io.open(twin, "r")
  if not f then
    return nil -- an English handout, or the glossary, which has no twin
  end
  f:close()
  local ids = {}
  pandoc.walk_block(pandoc.Div(read(twin).blocks), {
    Header = function(h)
      table.insert(ids, h.identifier)
    end,
  })
  return ids
end

local function is_anchor(b)
  if b.t ~= "Para" then
    return false
  end
  for _, i in ipairs(b.content) do
    if not (i.t == "RawInline" and i.text:match("^</?a[ >]")) then
      return false
    end
  end
  return #b.content > 0
end

function Pandoc(doc)
  local blocks = {}
  for _, path in ipairs(PANDOC_STATE.input_files) do
    local self = stem(path)
    local handout = read(path)
    local ids, n = english_ids(path), 0
    local kept = {}
    for _, b in ipairs(handout.blocks) do
      if not (ids and is_anchor(b)) then
        table.insert(kept, b)
      end
    end
    local body = pandoc.walk_block(pandoc.Div(kept), {
      Header = function(h)
        n = n + 1
        if ids and ids[n] then
          h.identifier = ids[n]
        end
        if h.identifier ~= "" then
          h.identifier = self .. "--" .. h.identifier
        end
        return h
      end,
      Link = function(l)
        l.target = target(self, l.target)
        return l
      end,
    })
    -- The handout's place, for links to the file itself; its blocks follow at the top level,
    -- where the table of contents finds their headings.
    table.insert(blocks, pandoc.Div({}, pandoc.Attr(self, {"handout"})))
    for _, b in ipairs(body.content) do
      table.insert(blocks, b)
    end
  end
  return pandoc.Pandoc(blocks, doc.meta)
end
