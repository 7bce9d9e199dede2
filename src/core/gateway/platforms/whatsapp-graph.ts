import { createHash } from 'node:crypto';
import { describeFetchError } from './signal-rpc.js';

/**
 * The WhatsApp Cloud API's side of the Graph API that the adapter uses: `POST /{version}/{phone_number_id}/messages`
 * (text, interactive, media messages, read receipts with a typing indicator), `POST .../media` (upload),
 * `GET /{version}/{media-id}` then the URL it names (download), `GET /{version}/{phone_number_id}` (the token
 * check). The token goes only to the Graph root and to the media URL Meta hands back; it is never in an error.
 */

export class GraphApiError extends Error {
  /** HTTP status; undefined when the server could not be reached. */
  readonly status: number | undefined;
  /** Graph's `error.code` (190: bad token; 131047: outside the 24-hour window; 130429: rate limited). */
  readonly graphCode: number | undefined;

  constructor(message: string, options: { status?: number; graphCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GraphApiError';
    this.status = options.status;
    this.graphCode = options.graphCode;
  }

  /** Meta refused the access token: retrying cannot help until the user replaces it. */
  get badToken(): boolean {
    return this.status === 401 || this.graphCode === 190;
  }
}

export interface GraphClientOptions {
  root: string;
  version: string;
  token: string;
  phoneNumberId: string;
  timeoutMs?: number;
}

export interface MediaInfo {
  url: string;
  mimeType: string | undefined;
  sha256: string | undefined;
}

/** Graph's own explanations are terse; these say what to do. */
const GRAPH_HINTS: Record<number, string> = {
  190: 'the access token is invalid or expired: put a new one in the variable gateway.whatsapp.token_env names',
  131047: 'WhatsApp lets a business reply freely only within 24 hours of the user\'s last message',
  130429: 'WhatsApp rate-limited this number: slow down',
  131026: 'the recipient cannot receive WhatsApp messages',
};

export class GraphClient {
  constructor(private readonly options: GraphClientOptions) {}

  /** Sends one message object (`messaging_product` is added); returns the new message's wamid. */
  async sendMessage(message: Record<string, unknown>): Promise<string> {
    const reply = await this.request('POST', `${this.options.phoneNumberId}/messages`, { json: { messaging_product: 'whatsapp', ...message } });
    const id = (reply as { messages?: { id?: unknown }[] }).messages?.[0]?.id;
    if (typeof id !== 'string') throw new GraphApiError('the Graph API answered a send without a message id');
    return id;
  }

  /** Marks the message read (blue ticks) and, with `typing`, shows the typing indicator for up to 25 s. */
  async markRead(messageId: string, typing: boolean): Promise<void> {
    await this.request('POST', `${this.options.phoneNumberId}/messages`, {
      json: { messaging_product: 'whatsapp', status: 'read', message_id: messageId, ...(typing ? { typing_indicator: { type: 'text' } } : {}) },
    });
  }

  /** The number the token belongs to: the credential check at connect. */
  async phoneNumber(): Promise<{ displayPhoneNumber: string | undefined; verifiedName: string | undefined }> {
    const reply = (await this.request('GET', `${this.options.phoneNumberId}?fields=display_phone_number,verified_name`)) as { display_phone_number?: unknown; verified_name?: unknown };
    return {
      displayPhoneNumber: typeof reply.display_phone_number === 'string' ? reply.display_phone_number : undefined,
      verifiedName: typeof reply.verified_name === 'string' ? reply.verified_name : undefined,
    };
  }

  async uploadMedia(bytes: Buffer, mimeType: string, fileName: string): Promise<string> {
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', mimeType);
    form.set('file', new Blob([bytes], { type: mimeType }), fileName);
    const reply = await this.request('POST', `${this.options.phoneNumberId}/media`, { form });
    const id = (reply as { id?: unknown }).id;
    if (typeof id !== 'string') throw new GraphApiError('the Graph API answered a media upload without a media id');
    return id;
  }

  /** Media id → bytes, checked against the sha256 Meta reports. */
  async downloadMedia(mediaId: string): Promise<{ bytes: Buffer; mimeType: string | undefined }> {
    const info = (await this.request('GET', encodeURIComponent(mediaId))) as { url?: unknown; mime_type?: unknown; sha256?: unknown };
    if (typeof info.url !== 'string') throw new GraphApiError(`the Graph API gave no download URL for media ${mediaId}`);
    const url = new URL(info.url);
    // The bearer token goes with the download (Meta requires it): only to HTTPS or to the configured Graph server.
    if (url.protocol !== 'https:' && url.origin !== new URL(this.options.root).origin) {
      throw new GraphApiError(`refusing to send the WhatsApp token to ${url.origin} for media ${mediaId} (not HTTPS, not the Graph server)`);
    }
    const response = await this.fetch(url.toString(), { method: 'GET', headers: this.auth() });
    if (!response.ok) throw await this.failure(response, `download of media ${mediaId}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    if (typeof info.sha256 === 'string' && info.sha256 !== '' && createHash('sha256').update(bytes).digest('hex') !== info.sha256.toLowerCase()) {
      throw new GraphApiError(`media ${mediaId} arrived damaged (its sha256 does not match what Meta reported)`);
    }
    return { bytes, mimeType: typeof info.mime_type === 'string' ? info.mime_type : undefined };
  }

  private auth(): Record<string, string> {
    return { authorization: `Bearer ${this.options.token}` };
  }

  private async request(method: 'GET' | 'POST', path: string, body: { json?: unknown; form?: FormData } = {}): Promise<unknown> {
    const url = `${this.options.root.replace(/\/+$/, '')}/${this.options.version}/${path}`;
    const init: RequestInit = { method, headers: { ...this.auth(), ...(body.json === undefined ? {} : { 'content-type': 'application/json' }) } };
    if (body.json !== undefined) init.body = JSON.stringify(body.json);
    if (body.form !== undefined) init.body = body.form;
    const response = await this.fetch(url, init);
    if (!response.ok) throw await this.failure(response, `${method} ${path.split('?')[0] ?? path}`);
    try {
      return await response.json();
    } catch (err) {
      throw new GraphApiError(`the Graph API answered ${method} ${path} with something that is not JSON`, { status: response.status, cause: err });
    }
  }

  private async fetch(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000) });
    } catch (err) {
      throw new GraphApiError(`the Graph API at ${new URL(url).origin} cannot be reached: ${describeFetchError(err)}`, { cause: err });
    }
  }

  private async failure(response: Response, what: string): Promise<GraphApiError> {
    const text = await response.text().catch(() => '');
    let graph: { message?: unknown; code?: unknown } = {};
    try {
      graph = ((JSON.parse(text) as { error?: typeof graph }).error ?? {}) as typeof graph;
    } catch {
      // Not Graph's JSON error body (a proxy's HTML page, say): the status alone says what happened.
    }
    const code = typeof graph.code === 'number' ? graph.code : undefined;
    const hint = code === undefined ? undefined : GRAPH_HINTS[code];
    const detail = typeof graph.message === 'string' ? graph.message : `HTTP ${response.status}`;
    return new GraphApiError(`the Graph API refused ${what}: ${detail}${code === undefined ? '' : ` (code ${code})`}${hint === undefined ? '' : ` — ${hint}`}`, { status: response.status, ...(code === undefined ? {} : { graphCode: code }) });
  }
}
