import type {
  LanguageModelV3Message,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';

type ToolMessageContent = Extract<LanguageModelV3Message, { role: 'tool' }>['content'];

const MAX_DETAIL = 160;

/**
 * One short sentence about what the tool calls returned, for the demo model's reply after a tool
 * result. The result is page or server data, so it is quoted (shortened) and never obeyed.
 */
export function summarizeToolResults(content: ToolMessageContent): string {
  const results = content.filter(
    (part): part is LanguageModelV3ToolResultPart => part.type === 'tool-result',
  );
  if (results.length === 0) return 'The tool answered without a result.';
  return results.map((part) => describe(part.toolName, part.output)).join(' ');
}

function describe(toolName: string, output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case 'execution-denied':
      return sentence(`${toolName} was declined${output.reason ? `: ${shorten(output.reason)}` : ''}`);
    case 'error-text':
      return sentence(`${toolName} failed: ${shorten(output.value)}`);
    case 'error-json':
      return sentence(`${toolName} failed: ${shorten(JSON.stringify(output.value))}`);
    case 'text':
      return sentence(`${toolName} returned: ${shorten(output.value)}`);
    case 'json':
      return sentence(`${toolName} returned: ${shorten(JSON.stringify(output.value) ?? 'null')}`);
    case 'content':
      return sentence(`${toolName} returned ${output.value.length} content part(s)`);
  }
}

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_DETAIL ? `${oneLine.slice(0, MAX_DETAIL - 1)}…` : oneLine;
}

function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}
