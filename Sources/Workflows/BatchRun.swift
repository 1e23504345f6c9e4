/// What the workers of one `correct` run share for batches: the shard, the skip rule and the manifest.
public struct BatchRun: Sendable {
    /// The part of the inputs this process corrects.
    public let shard: Shard
    /// Skip inputs whose outputs all exist.
    public let skipExisting: Bool
    /// Where each input's line goes, if anywhere.
    public let manifest: ManifestWriter?

    /// A batch with these rules.
    public init(shard: Shard, skipExisting: Bool, manifest: ManifestWriter?) {
        self.shard = shard
        self.skipExisting = skipExisting
        self.manifest = manifest
    }

    /// No sharding, skipping or manifest: the plain `correct` run.
    public static let none = BatchRun(shard: .all, skipExisting: false, manifest: nil)

    /// True when the input's outputs are all complete and --skip-existing is on; otherwise clears what a killed
    /// run left beside them, so the input starts clean.
    func alreadyDone(outputs: [String]) -> Bool {
        if skipExisting && BatchResume.isComplete(outputs: outputs) { return true }
        for output in outputs { BatchResume.removeStaleTemporaries(for: output) }
        return false
    }

    /// Appends the input's manifest line, if there is a manifest; a manifest that cannot be written is reported
    /// as the input's failure, since the batch's record of it would be lost.
    func record(_ result: inout CorrectResult, seconds: Double) {
        guard let manifest else { return }
        let record = ManifestRecord(file: result.file, outputs: result.outputs, status: result.status,
                                    scene: result.scene?.rawValue, error: result.error,
                                    timings: .init(total: seconds), shard: shard.description)
        do {
            try manifest.append(record)
        } catch {
            result.error = result.error ?? error.description
            if result.status == .done { result.status = .failed }
        }
    }
}
