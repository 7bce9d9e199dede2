/** Context compression: the entry points the agent host uses (see compress.ts for the whole flow). */
export { compressContext, summaryTokenBudget, type CompressOptions, type CompressionConfig, type CompressionResult } from './compress.js';
export { toolPairingProblems } from './history-check.js';
export { planCompression, type CompressionPlan, type PlanOptions } from './plan.js';
export { isProtectedMessage, SKILL_VIEW_TOOL } from './protected-content.js';
export { isPrunedOutput, pruneToolOutputs, PRUNE_MIN_CHARS, type PruneOptions, type PruneResult } from './prune.js';
export { buildSummaryRequest, summarizeMiddle, SUMMARY_SECTIONS, validateSummary, type SummarizeOptions, type SummarizeResult } from './summarize.js';
export { isSummaryMessage, SUMMARY_MARKER, summaryBody, summaryMessage } from './summary-message.js';
export { conversationThreshold, estimateTokens, historyTokens, messageTokens, needsCompression, thresholdTokens, type CompressionTrigger } from './token-estimate.js';
export { LEFT_OUT_MARKER, leftOutNotice, pruneOldestTurns, type LeftOut, type OverflowPrune } from './overflow-prune.js';
export { renderTranscript, type Transcript, type TranscriptCuts } from './transcript.js';
