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

function Pandoc(doc)
  local blocks = {}
  for _, path in ipairs(PANDOC_STATE.input_files) do
    local self = stem(path)
    local handout = read(path)
    local body = pandoc.walk_block(pandoc.Div(handout.blocks), {
      Header = function(h)
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
