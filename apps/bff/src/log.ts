import { type LogSink as BaseSink, createLogSink, redactUrl } from '@review-desk/server/log';

// The BFF's logs: the shared sink (packages/server/log.ts: JSON on stdout, asynchronous and
// batched, redaction) plus the access log, composed here because it is the hottest log call.

export type AccessEntry = {
  reqId: string;
  method: string;
  path: string;
  route: string;
  status: number;
  ms: number;
  user: string | undefined;
};

/** The line each send's outcome adds (the journal entry, the upstream's status or error). */
export type SendEntry = {
  reqId: string;
  user: string | undefined;
  send: string;
  outcome: string;
  upstreamStatus: number | null;
  upstreamError: string | undefined;
  ms: number;
};

/**
 * The access log: one line per request, the hottest log call by far, and the send's outcome line.
 * Their fields are fixed and never secret (ids, method, path without query, route name, status,
 * outcome, duration), so the lines are composed directly — the same JSON shape pino writes,
 * without its generic serialisation and redaction pass — and go to the same batched destination.
 */
export type AccessLog = { enabled: boolean; write(entry: AccessEntry): void; send(entry: SendEntry): void };

export type LogSink = BaseSink & { access: AccessLog };

/**
 * Lines are written in batches of at least this many bytes (about 25 sends' lines under load, one
 * write instead of six), or every 200 ms. Below sonic-boom's 16 KB write size.
 */
const BATCH_BYTES = 12 * 1024;

export function createLogger(level: string): LogSink {
  const sink = createLogSink({ service: 'bff', level, batchBytes: BATCH_BYTES });
  const lines = turnLines(sink.destination);
  const access = createAccessLog(lines, sink.baseJson, sink.logger.isLevelEnabled('info'));
  return {
    ...sink,
    access,
    flush: () => {
      lines.drain();
      return sink.flush();
    },
    end: (waitMs) => {
      lines.drain();
      return sink.end(waitMs);
    },
  };
}

/**
 * The lines of one turn of the event loop handed to the destination in one write. The destination
 * measures the whole batch it holds on every write (and copies it to do so), so a write per line
 * cost a copy of up to BATCH_BYTES per line. A line logged with the shared logger in the same turn
 * after an access line goes out before it; every line carries its time.
 */
export function turnLines(destination: { write(text: string): unknown }) {
  let pending = '';
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    try {
      destination.write(text);
    } catch {
      // The destination has ended (the process is stopping): the lines are dropped, not thrown from a timer.
    }
  };
  return {
    write(line: string): void {
      pending += line;
      if (!scheduled) {
        scheduled = true;
        setImmediate(drain);
      }
    },
    /** Hands what is pending to the destination now (before a flush or the end). */
    drain,
  };
}

export function createAccessLog(
  destination: { write(line: string): void },
  baseJson: string,
  enabled: boolean,
): AccessLog {
  const prefix = `{"level":30,"time":`;
  const fixed = `${baseJson},"reqId":`;
  const access: AccessLog = {
    enabled,
    write(e) {
      // The path is logged without its query; anything in it that looks like a key is not.
      destination.write(
        `${prefix}${Date.now()}${fixed}${JSON.stringify(e.reqId)},"method":${JSON.stringify(e.method)},"path":${JSON.stringify(redactUrl(e.path))},"route":${JSON.stringify(e.route)},"status":${e.status},"ms":${e.ms}${e.user === undefined ? '' : `,"user":${JSON.stringify(e.user)}`},"msg":"request"}\n`,
      );
    },
    send(e) {
      if (!access.enabled) return;
      destination.write(
        `${prefix}${Date.now()}${fixed}${JSON.stringify(e.reqId)}${e.user === undefined ? '' : `,"user":${JSON.stringify(e.user)}`},"send":${JSON.stringify(e.send)},"outcome":${JSON.stringify(e.outcome)},"upstreamStatus":${e.upstreamStatus === null ? 'null' : e.upstreamStatus}${e.upstreamError === undefined ? '' : `,"upstreamError":${JSON.stringify(e.upstreamError)}`},"ms":${e.ms},"msg":"send"}\n`,
      );
    },
  };
  return access;
}
