/**
 * Tools that only read. Every other tool (Write, Edit, MultiEdit, Bash, NotebookEdit, Task,
 * tools of MCP servers, tools this version does not know) may change files, so a scan follows its
 * result (ARCHITECTURE.md "Change detection").
 */
const READ_ONLY_TOOLS = new Set([
  'Read',
  'Glob',
  'Grep',
  'LS',
  'WebFetch',
  'WebSearch',
  'TodoRead',
  'TodoWrite',
  'NotebookRead',
  'BashOutput',
  'ExitPlanMode',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
]);

export const toolMayChangeFiles = (toolName: string): boolean => !READ_ONLY_TOOLS.has(toolName);
