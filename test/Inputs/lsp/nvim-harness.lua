-- Runs in headless Neovim after the docs' init.lua (editor-setups.py
-- nvim-lsp): waits for the language server's diagnostics on the buffer,
-- writes them, applies the quick fix at the first, waits for the
-- diagnostics of the edited buffer, and writes those and the buffer.
-- LSP_OPENED and LSP_FIXED: how many diagnostics each state has (2 and 1).
local out = assert(io.open(vim.env.LSP_OUT, "w"))
local function dump(label)
  local diagnostics = vim.diagnostic.get(0)
  table.sort(diagnostics, function(a, b) return a.lnum < b.lnum end)
  for _, d in ipairs(diagnostics) do
    local lsp = d.user_data and d.user_data.lsp or {}
    out:write(string.format("%s: %d:%d: %s [%s]\n", label, d.lnum + 1,
      d.col + 1, d.message, lsp.code or d.code or ""))
  end
  return diagnostics
end
local function wait_for(count)
  return vim.wait(60000, function()
    return #vim.diagnostic.get(0) == count
  end, 50)
end
local opened = tonumber(vim.env.LSP_OPENED or "2")
local fixed = tonumber(vim.env.LSP_FIXED or "1")
if not wait_for(opened) then
  out:write("no diagnostics\n")
end
local first = dump("opened")[1]
if first then
  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = {} }
  local client = vim.lsp.get_active_clients()[1]
  local responses = vim.lsp.buf_request_sync(0, "textDocument/codeAction",
    params, 10000) or {}
  for _, response in pairs(responses) do
    for _, action in ipairs(response.result or {}) do
      out:write("quick fix: " .. action.title .. "\n")
      vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
    end
  end
  if wait_for(fixed) then
    dump("fixed")
    out:write(string.format("fixed: %d diagnostics\n", fixed))
  end
  for i, line in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    out:write(string.format("buffer %d: %s\n", i, line))
  end
end
out:close()
vim.cmd("qa!")
