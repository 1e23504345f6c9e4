/// Every adjustment from every plugin found on the search path, with the files that were refused and why.
///
/// Immutable after ``load(searchPaths:)`` returns, so one registry can be shared by any number of threads; it is
/// `@unchecked Sendable` only because it holds the `dlopen` handles, which it keeps open for the life of the process
/// (adjustments point into the libraries).
public final class PluginRegistry: @unchecked Sendable {
    /// Every loaded adjustment, sorted by id.
    public let adjustments: [Adjustment]
    /// Files and adjustments that were not loaded, in search order.
    public let refusals: [PluginRefusal]
    /// The plugin files that loaded, in search order.
    public let plugins: [LoadedPlugin]
    private let byID: [String: Adjustment]
    private let handles: [UnsafeMutableRawPointer]

    private init(
        adjustments: [Adjustment], refusals: [PluginRefusal], plugins: [LoadedPlugin],
        handles: [UnsafeMutableRawPointer]
    ) {
        self.adjustments = adjustments.sorted { $0.id < $1.id }
        self.refusals = refusals
        self.plugins = plugins
        self.byID = Dictionary(uniqueKeysWithValues: adjustments.map { ($0.id, $0) })
        self.handles = handles
    }

    /// Loads every plugin file in `searchPaths` (see ``PluginSearchPath``), in order; a refused file never stops the others, and the first file to provide an id keeps it.
    public static func load(searchPaths: [String]) -> PluginRegistry {
        var adjustments: [Adjustment] = []
        var owners: [String: String] = [:]
        var refusals: [PluginRefusal] = []
        var plugins: [LoadedPlugin] = []
        var handles: [UnsafeMutableRawPointer] = []
        var seenFiles = Set<String>()
        for directory in searchPaths {
            let files: [String]
            switch PluginSearchPath.pluginFiles(in: directory) {
            case .success(let found):
                files = found
            case .failure(let refusal):
                refusals.append(refusal)
                continue
            }
            for file in files where seenFiles.insert(file).inserted {
                switch PluginLoader.load(path: file) {
                case .failure(let refusal):
                    refusals.append(refusal)
                case .success(let candidate):
                    handles.append(candidate.handle)
                    var accepted: [String] = []
                    for adjustment in candidate.adjustments {
                        if let first = owners[adjustment.id] {
                            refusals.append(PluginRefusal(
                                path: file, adjustmentID: adjustment.id,
                                reason: .duplicateID(adjustment.id, firstPath: first)))
                            continue
                        }
                        owners[adjustment.id] = file
                        adjustments.append(adjustment)
                        accepted.append(adjustment.id)
                    }
                    plugins.append(LoadedPlugin(
                        path: file, name: candidate.name, version: candidate.version, adjustmentIDs: accepted))
                }
            }
        }
        return PluginRegistry(adjustments: adjustments, refusals: refusals, plugins: plugins, handles: handles)
    }

    /// The adjustment with this id, or nil.
    public func adjustment(id: String) -> Adjustment? {
        byID[id]
    }

    /// The adjustment with this id, or an error listing the ids that exist.
    public func requireAdjustment(id: String) throws(PluginHostError) -> Adjustment {
        guard let adjustment = byID[id] else {
            throw .unknownAdjustment(id: id, known: adjustments.map(\.id))
        }
        return adjustment
    }
}
