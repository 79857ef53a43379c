/**
 * A real HTTP server on loopback that speaks the OpenAI chat-completions API, for tests of
 * anything that calls a language model (in this process or in a spawned CLI). Replies are
 * scripted per request — valid JSON, broken JSON, the wrong shape, slow answers, 429 with
 * Retry-After, 500 — and every request is recorded. Usage is reported like OpenAI does.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  [key: string]: unknown;
}

export interface RecordedChat {
  path: string;
  authorization: string | undefined;
  body: ChatBody;
}

export interface FakeReply {
  /** A value sent as the message content, as JSON text. */
  json?: unknown;
  /** The message content as is. */
  content?: string;
  /** An HTTP error status; the body is an OpenAI-style error with `error` as its message. */
  status?: number;
  error?: string;
  /** A raw response body, replacing everything else. */
  body?: string;
  headers?: Record<string, string>;
  /** Waits this long before answering. */
  delayMs?: number;
  /** Reported usage; by default about one token per four characters. */
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** The model named in the answer; by default the one asked for. */
  model?: string;
}

export type Responder = (request: RecordedChat, index: number) => FakeReply | Promise<FakeReply>;

export interface FakeOpenAIOptions {
  /** Answers requests when the queue is empty; by default a 400 saying nothing was scripted. */
  respond?: Responder;
  /** Refuses `response_format` with a 400, as some local servers do. */
  rejectResponseFormat?: boolean;
}

export interface FakeOpenAI {
  /** `http://127.0.0.1:<port>/v1`: what HINDSIGHT_LLM_BASE_URL takes. */
  baseUrl: string;
  requests: RecordedChat[];
  /** Queues replies, answered in order before the responder. */
  enqueue(...replies: FakeReply[]): void;
  /** Tokens reported so far over all successful answers. */
  usage: { prompt_tokens: number; completion_tokens: number };
  /** The most requests ever in flight at once. */
  maxConcurrent: number;
  close(): Promise<void>;
}

/** Replies tests commonly need. */
export const reply = {
  json: (value: unknown, extra: FakeReply = {}): FakeReply => ({ json: value, ...extra }),
  /** What small local models do: prose, a code fence and trailing commas around the JSON. */
  brokenJson: (value: Record<string, unknown>): FakeReply => ({
    content: `Sure! Here is the JSON you asked for:\n\`\`\`json\n${JSON.stringify(value, null, 2).replace(/\n}/, ",\n}")}\n\`\`\`\nLet me know if you need anything else.`,
  }),
  text: (content: string): FakeReply => ({ content }),
  rateLimited: (retryAfterSeconds: number): FakeReply => ({
    status: 429,
    error: "Rate limit reached; try again later.",
    headers: { "retry-after": String(retryAfterSeconds) },
  }),
  serverError: (status = 500): FakeReply => ({ status, error: "The server had an error." }),
  slow: (delayMs: number, then: FakeReply): FakeReply => ({ ...then, delayMs }),
};

const approxTokens = (text: string) => Math.ceil(text.length / 4);

function send(res: ServerResponse, status: number, body: string, headers = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(body);
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const queue: FakeReply[] = [];
  let inFlight = 0;
  const fake: FakeOpenAI = {
    baseUrl: "",
    requests: [],
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    maxConcurrent: 0,
    close: async () => {},
  };

  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      return send(res, 404, JSON.stringify({ error: { message: `no route ${req.url}` } }));
    }
    const body = JSON.parse(raw) as ChatBody;
    const recorded = { path: req.url, authorization: req.headers.authorization, body };
    fake.requests.push(recorded);
    if (options.rejectResponseFormat && body.response_format) {
      return send(
        res,
        400,
        JSON.stringify({ error: { message: "'response_format.type' must be 'json_schema'" } }),
      );
    }
    const scripted =
      queue.shift() ??
      (options.respond
        ? await options.respond(recorded, fake.requests.length - 1)
        : { status: 400, error: "fake-openai: no reply scripted for this request" });
    if (scripted.delayMs) await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
    if (scripted.body !== undefined) return send(res, scripted.status ?? 200, scripted.body);
    if (scripted.status !== undefined && scripted.status !== 200) {
      return send(
        res,
        scripted.status,
        JSON.stringify({ error: { message: scripted.error ?? "error", type: "fake" } }),
        scripted.headers,
      );
    }
    const content =
      scripted.content ?? (scripted.json === undefined ? "" : JSON.stringify(scripted.json));
    const usage = scripted.usage ?? {
      prompt_tokens: approxTokens(body.messages.map((message) => message.content).join("\n")),
      completion_tokens: approxTokens(content),
    };
    fake.usage.prompt_tokens += usage.prompt_tokens;
    fake.usage.completion_tokens += usage.completion_tokens;
    send(
      res,
      200,
      JSON.stringify({
        id: `chatcmpl-${fake.requests.length}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: scripted.model ?? body.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      }),
      scripted.headers,
    );
  };

  const server = createServer((req, res) => {
    inFlight++;
    fake.maxConcurrent = Math.max(fake.maxConcurrent, inFlight);
    answer(req, res)
      .catch((error: unknown) => send(res, 500, JSON.stringify({ error: String(error) })))
      .finally(() => {
        inFlight--;
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.baseUrl = `http://127.0.0.1:${port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** The text of the last user message of a recorded request. */
export function lastUserMessage(request: RecordedChat): string {
  return (
    [...request.body.messages].reverse().find((message) => message.role === "user")?.content ?? ""
  );
}
