// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CURATED_MODELS } from '../../src/core/model-files/curated-models.js';
import { webSocketApi, type WebSocketHearthApi } from '../../src/renderer/api/websocket-api.js';
import { createServices, ServicesProvider, type Services } from '../../src/renderer/app/services.js';
import { curatedDescription } from '../../src/renderer/models/curated-description.js';
import { ModelsView } from '../../src/renderer/models/ModelsView.js';
import type { Language } from '../../src/renderer/settings/settings-store.js';
import { CuratedModel } from '../../src/shared/contract.js';
import { eventually, startContractServer, type ContractServer } from './fixtures/contract-server.js';
import { sampleSettings, sampleStatus } from './fixtures/sample-views.js';

/** The curated models' descriptions: written in every UI language, and shown in the one the UI is set to. */
let rendered: { server: ContractServer; api: WebSocketHearthApi; services: Services } | undefined;

const HAN = /\p{Script=Han}/u;

async function renderModels(language: Language) {
  const server = await startContractServer({
    'settings.get': async () => ({ ...sampleSettings(), language }),
    'app.status': async () => sampleStatus(),
    // The real curated list, through the contract schema the engine answers with.
    'models.list': async () => ({ files: [], curated: CURATED_MODELS.map((m) => CuratedModel.parse(m)), downloads: [] }),
  });
  const api = webSocketApi(server.location);
  const services = createServices(api);
  rendered = { server, api, services };
  await services.settings.getState().load();
  render(
    <ServicesProvider services={services}>
      <ModelsView />
    </ServicesProvider>,
  );
  await eventually(() => expect(screen.getAllByTestId('curated-description')).toHaveLength(CURATED_MODELS.length));
  return screen.getAllByTestId('curated-description').map((e) => e.textContent ?? '');
}

async function unmount() {
  cleanup();
  if (!rendered) return;
  rendered.services.dispose();
  rendered.api.close();
  await rendered.server.close();
  rendered = undefined;
}

afterEach(unmount);

describe('curated model descriptions', () => {
  it('every curated model has an English and a Chinese description, and the Chinese one is Chinese', () => {
    // Catches a new curated model added with only English, or a zh-CN entry that is the English copied over.
    for (const m of CURATED_MODELS) {
      expect(m.description.en.trim(), m.id).not.toBe('');
      expect(m.description['zh-CN'], m.id).toMatch(HAN);
      expect(m.description.en, m.id).not.toMatch(HAN);
      expect(m.description['zh-CN'], m.id).not.toBe(m.description.en);
    }
  });

  it('the selection picks the UI language and falls back to English for one the entry lacks', () => {
    // Catches the renderer always showing English, or showing nothing for a language the engine did not send.
    const entry = { description: { en: 'small', 'zh-CN': '小' } };
    expect(curatedDescription(entry, 'zh-CN')).toBe('小');
    expect(curatedDescription(entry, 'en')).toBe('small');
    expect(curatedDescription({ description: { en: 'small' } } as unknown as typeof entry, 'zh-CN')).toBe('small');
  });

  it('the model manager in Chinese shows the Chinese descriptions, and in English the English ones', async () => {
    // Catches the view hard-coding the English text (the bug this fixes: descriptions were English in zh).
    const zh = await renderModels('zh-CN');
    expect(zh).toEqual(CURATED_MODELS.map((m) => m.description['zh-CN']));
    await unmount();
    const en = await renderModels('en');
    expect(en).toEqual(CURATED_MODELS.map((m) => m.description.en));
  });
});
