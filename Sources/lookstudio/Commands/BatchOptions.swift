import ArgumentParser
import Foundation
import Workflows

/// `correct`'s flags for batches spread over many processes or machines (docs/SCALE.md).
struct BatchOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Correct only shard K of N (K from 0): a stable partition by each input's path "
                               + "relative to its input folder, so N machines given 0/N … N-1/N cover every input "
                               + "exactly once. E.g. --shard $SLURM_ARRAY_TASK_ID/16 (docs/SCALE.md: GNU "
                               + "parallel, Slurm, Kubernetes).", valueName: "K/N"))
    var shard: String?

    @Flag(help: ArgumentHelp("Skip inputs whose outputs all exist (outputs are renamed into place only when "
                             + "complete), so a killed run can be restarted and resumes where it stopped."))
    var skipExisting = false

    @Option(help: ArgumentHelp("Append one JSON line per input to this file: {\"error\": null, \"file\": \"…\", "
                               + "\"outputs\": [\"…\"], \"scene\": 8, \"shard\": \"0/4\", \"status\": "
                               + "\"done|skipped|failed\", \"timings\": {\"total\": 1.234}} (seconds). Each line is "
                               + "written as the input finishes, so a killed run's manifest is valid up to its last "
                               + "line.", valueName: "file.jsonl"))
    var manifest: String?

    func validate() throws {
        _ = try parsedShard()
    }

    /// The shard to run (the whole batch without --shard).
    func parsedShard() throws -> Shard {
        guard let shard else { return .all }
        do {
            return try Shard(parsing: shard)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The run's batch state; opens the manifest.
    func start() throws -> BatchRun {
        BatchRun(shard: try parsedShard(), skipExisting: skipExisting,
                 manifest: try manifest.map { try ManifestWriter(path: $0) })
    }
}

