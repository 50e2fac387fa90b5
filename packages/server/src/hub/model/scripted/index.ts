/**
 * `@diosc/server/scripted`: the scripted model — a real AI SDK provider object that answers from a
 * script instead of a network, named as scripted wherever a user sees it. Examples and tests script
 * their assistants with it; `readTurn` reads what a turn has seen so far (results, snapshots).
 */
export type {
  Script,
  ScriptedCall,
  ScriptedModel,
  ScriptedModelOptions,
  ScriptedStep,
} from './scripted-model.js';
export { createScriptedModel, SCRIPT_EXHAUSTED_TEXT } from './scripted-model.js';
export type { SnapshotSeen, ToolOutcome, TurnSoFar } from './turn-reader.js';
export { readTurn } from './turn-reader.js';
