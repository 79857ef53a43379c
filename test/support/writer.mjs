// A writer process for reliability tests: stores `count` episodic memories one after another,
// either through the library (`library <count> <prefix>`, store from the environment) or over
// REST (`http <count> <prefix> <base-url>`), printing one JSON line per write as it is answered:
// {"ack": id} or {"failure": {code, message}}. A failed write is not retried.
import { randomUUID } from "node:crypto";
import { configFromEnv, createHindsight } from "../../dist/index.js";

const [mode, countText, prefix, baseUrl] = process.argv.slice(2);
const count = Number(countText);
const acknowledged = { push: (id) => process.stdout.write(`${JSON.stringify({ ack: id })}\n`) };
const failures = {
  push: (failure) => process.stdout.write(`${JSON.stringify({ failure })}\n`),
};

function memoryFor(n) {
  return {
    id: randomUUID(),
    task_type: "reliability",
    summary: `${prefix} write ${n}: rotated the API keys of service ${n % 5}`,
    outcome: n % 3 === 0 ? "failure" : "success",
  };
}

if (mode === "library") {
  const memory = await createHindsight(configFromEnv(process.env));
  for (let n = 0; n < count; n++) {
    const item = memoryFor(n);
    try {
      await memory.storeEpisodic(item);
      acknowledged.push(item.id);
    } catch (error) {
      failures.push({ code: error.code ?? "UNCODED", message: String(error.message) });
    }
  }
  await memory.close();
} else {
  for (let n = 0; n < count; n++) {
    const item = memoryFor(n);
    try {
      const response = await fetch(`${baseUrl}/v1/memories`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(item),
      });
      const body = await response.json();
      if (response.status === 201 && body.id === item.id) acknowledged.push(item.id);
      else failures.push({ code: body.code ?? String(response.status), message: body.message });
    } catch (error) {
      failures.push({ code: "NETWORK", message: String(error.message) });
    }
  }
}
