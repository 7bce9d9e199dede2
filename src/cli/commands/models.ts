import { resolveHome } from '../../core/config/home.js';
import { HearthError } from '../../core/errors.js';
import { CURATED_MODELS } from '../../core/model-files/curated-models.js';
import { formatBytes } from '../../core/model-files/disk-space.js';
import { estimateModelFit, thisMachine } from '../../core/model-files/fit-estimate.js';
import { ModelDownloads, type DownloadStatus } from '../../core/model-files/model-downloads.js';
import { modelSizeOf } from '../../core/model-files/model-size.js';
import { parseModelSource } from '../../core/model-files/model-source.js';
import { listModelFiles, modelsFolder } from '../../core/model-files/models-folder.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';
import { cliConfig } from '../services.js';
import { onInterrupt } from '../signals.js';

export const modelsHelp = `Usage:
  hearth models list [--json]                      model files, unfinished downloads, curated models
  hearth models download <source> [--sha256 HEX]   into HEARTH_HOME/models (Ctrl+C pauses; run it again to resume)
  hearth models fit <source> [--size BYTES] [--json]   will it run on this machine? (CPU estimate)
<source>: hf:<owner>/<repo>/<file.gguf>, an http(s) URL, or a path to a .gguf file.`;

export async function modelsCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('models', argv, { json: { type: 'boolean' }, sha256: { type: 'string' }, size: { type: 'string' } });
  if (values.help) {
    io.out(`${modelsHelp}\n`);
    return 0;
  }
  const [action, source] = positionals;
  const home = resolveHome(io.env);
  switch (action) {
    case 'list':
      return listModels(home, io, values.json === true);
    case 'download':
      if (!source) throw new HearthError('usage', `hearth models download needs a source, e.g. hearth models download ${CURATED_MODELS[0]?.source ?? ''}`);
      if (values.sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(values.sha256)) throw new HearthError('usage', '--sha256 must be 64 hexadecimal digits.');
      return downloadModel(home, source, values.sha256, io);
    case 'fit': {
      if (!source) throw new HearthError('usage', 'hearth models fit needs a source (an hf: URI, a URL or a .gguf path).');
      const size = values.size === undefined ? undefined : Number(values.size);
      if (size !== undefined && !(Number.isInteger(size) && size > 0)) throw new HearthError('usage', `--size must be a positive number of bytes (got "${values.size}").`);
      const parsed = parseModelSource(source, { env: io.env, cwd: io.cwd });
      const { sizeBytes } = await modelSizeOf(parsed, { sizeBytes: size });
      // The CLI does not start the model host just to ask about VRAM, so this is the CPU estimate.
      const location = parsed.kind === 'local' ? parsed.path : parsed.url;
      const fit = await estimateModelFit({ location, fileBytes: sizeBytes, contextTokens: cliConfig(io).current().local.context_size, machine: thisMachine(null) });
      io.out(values.json ? `${JSON.stringify(fit)}\n` : `${fit.fits ? 'fits' : 'does not fit'} (${fit.placement}): ${fit.detail}\n`);
      return fit.fits ? 0 : 1;
    }
    default:
      throw new HearthError('usage', `Unknown models action "${action ?? ''}".\n${modelsHelp}`);
  }
}

async function listModels(home: string, io: CliIO, json: boolean): Promise<number> {
  const folder = modelsFolder(home);
  const downloads = new ModelDownloads({ folder, env: io.env, onChange: () => undefined });
  const files = listModelFiles(folder);
  const unfinished = downloads.list();
  await downloads.close();
  if (json) {
    io.out(`${JSON.stringify({ files, downloads: unfinished, curated: CURATED_MODELS })}\n`);
    return 0;
  }
  io.out(files.length ? files.map((f) => `${f.name}  ${formatBytes(f.sizeBytes)}\n`).join('') : `No models in ${folder} yet.\n`);
  for (const d of unfinished) io.out(`(unfinished) ${d.file}  ${formatBytes(d.receivedBytes)}${d.totalBytes ? ` of ${formatBytes(d.totalBytes)}` : ''}  ${d.state}${d.error ? `: ${d.error}` : ''}\n`);
  io.out(`\nCurated:\n${CURATED_MODELS.map((m) => `  ${m.source}  ~${formatBytes(m.sizeBytes)}  ${m.label}: ${m.description.en}\n`).join('')}`);
  return 0;
}

async function downloadModel(home: string, source: string, sha256: string | undefined, io: CliIO): Promise<number> {
  let lastLine = 0;
  const downloads = new ModelDownloads({
    folder: modelsFolder(home),
    env: io.env,
    progressIntervalMs: io.isTTY ? 250 : 2000,
    onChange: (d) => {
      if (d.state !== 'downloading') return;
      lastLine = Date.now();
      io.err(`${io.isTTY ? '\r' : ''}${progressLine(d)}${io.isTTY ? '\x1b[K' : '\n'}`);
    },
  });
  const started = downloads.start({ source, sha256: sha256?.toLowerCase(), cwd: io.cwd });
  const stopListening = onInterrupt(() => void downloads.pause(started.id), Date.now, () => io.err('\n(pausing the download; `hearth models download` with the same source resumes it; Ctrl+C again within 2 s exits)\n'));
  try {
    const result = await downloads.settled(started.id);
    if (lastLine && io.isTTY) io.err('\n');
    if (result.notice) io.err(`${result.notice}\n`);
    if (result.state === 'done') {
      io.out(`${result.file}\n`);
      return 0;
    }
    if (result.state === 'paused') {
      io.err(`Paused at ${formatBytes(result.receivedBytes)}; run the same command again to resume.\n`);
      return 130;
    }
    throw new HearthError('download_failed', result.error ?? `The download ended ${result.state}.`);
  } finally {
    stopListening();
    await downloads.close();
  }
}

function progressLine(d: DownloadStatus): string {
  const percent = d.totalBytes ? ` ${((d.receivedBytes / d.totalBytes) * 100).toFixed(1)}%` : '';
  const eta = d.etaSeconds === null ? '' : `, ${d.etaSeconds} s left`;
  return `${formatBytes(d.receivedBytes)}${d.totalBytes ? ` / ${formatBytes(d.totalBytes)}` : ''}${percent} at ${formatBytes(d.bytesPerSecond)}/s${eta}`;
}
