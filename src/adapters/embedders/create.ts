import type { EmbedderConfig } from "../../config/schema.js";
import type { Embedder, Logger } from "../../core/ports.js";
import { defaultModelDir } from "./default-model.js";
import { createHashEmbedder } from "./hash.js";

/** Builds the configured embedder; model-backed ones are imported only when chosen. */
export async function createEmbedder(config: EmbedderConfig, logger: Logger): Promise<Embedder> {
  switch (config.kind) {
    case "hash":
      logger.info(
        "using the built-in hash embedder (matches shared words, not meaning); " +
          "unset HINDSIGHT_EMBEDDER for the default multilingual model",
      );
      return createHashEmbedder();
    case "local": {
      const { createLocalEmbedder } = await import("./local.js");
      const modelDir =
        config.modelDir ?? (config.model ? undefined : defaultModelDir(config.modelsDir));
      const embedder = await createLocalEmbedder(
        {
          ...(modelDir ? { modelDir } : {}),
          ...(config.model ? { model: config.model } : {}),
          ...(config.scripts ? { scripts: config.scripts } : {}),
          allowRemote: config.allowRemote,
        },
        { logger },
      );
      logger.info(`embedding with ${embedder.id} (${modelDir ?? config.model}), on its own thread`);
      return embedder;
    }
    case "openai": {
      const { createOpenAIEmbedder } = await import("./openai.js");
      return createOpenAIEmbedder(config, { logger });
    }
  }
}
