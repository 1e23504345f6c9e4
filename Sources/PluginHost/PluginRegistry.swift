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
    /// The plugin-host children evaluating this registry's adjustments, when they run out of process.
    private let host: PluginHostPool?

    private init(
        adjustments: [Adjustment], refusals: [PluginRefusal], plugins: [LoadedPlugin],
        handles: [UnsafeMutableRawPointer], host: PluginHostPool? = nil
    ) {
        self.adjustments = adjustments.sorted { $0.id < $1.id }
        self.refusals = refusals
        self.plugins = plugins
        self.byID = Dictionary(uniqueKeysWithValues: adjustments.map { ($0.id, $0) })
        self.handles = handles
        self.host = host
    }

    /// Where the adjustments run: in this process, or in plugin-host children.
    public var isolation: PluginIsolation {
        host.map { .outOfProcess($0.configuration) } ?? .inProcess
    }

    /// Loads every plugin file in `searchPaths` (see ``PluginSearchPath``), in order; a refused file never stops the
    /// others, and the first file to provide an id keeps it.
    ///
    /// Out of process, a file that crashes, exits or hangs the plugin host while loading is refused
    /// (`crashed_on_load`) and the others are loaded by a fresh child; nothing is `dlopen`ed in this process.
    public static func load(searchPaths: [String], isolation: PluginIsolation = .inProcess) -> PluginRegistry {
        guard case .outOfProcess(let configuration) = isolation else {
            return loadInProcess(searchPaths: searchPaths, excluding: [], willLoad: { _ in })
        }
        let pool = PluginHostPool(configuration: configuration, searchPaths: searchPaths)
        let (message, hostRefusals) = pool.loadRegistry()
        guard let message else {
            return PluginRegistry(adjustments: [], refusals: hostRefusals, plugins: [], handles: [])
        }
        // The child sends its adjustments sorted by id; an evaluation names one by its index in that order.
        let adjustments = message.adjustments.enumerated().map { index, info in
            Adjustment(id: info.id, displayName: info.displayName, category: info.category,
                       description: info.description, parameters: info.parameters, pluginPath: info.pluginPath,
                       pluginName: info.pluginName, pluginVersion: info.pluginVersion,
                       backend: .remote(pool, index: index))
        }
        let refusals = message.refusals.map { PluginRefusal(path: $0.path, adjustmentID: $0.adjustmentID,
                                                            reason: $0.reason) }
        return PluginRegistry(adjustments: adjustments, refusals: refusals + hostRefusals, plugins: message.plugins,
                              handles: [], host: pool)
    }

    /// Loads in this process, skipping `excluding`; `willLoad` hears each file just before its `dlopen`.
    static func loadInProcess(searchPaths: [String], excluding: Set<String>, willLoad: (String) -> Void)
        -> PluginRegistry
    {
        var adjustments: [Adjustment] = []
        var owners: [String: String] = [:]
        var refusals: [PluginRefusal] = []
        var plugins: [LoadedPlugin] = []
        var handles: [UnsafeMutableRawPointer] = []
        var seenFiles = Set<String>()
        for directory in searchPaths {
            let files: [String]
            let builtInsOnly = PluginSearchPath.isExecutableDirectory(directory)
            switch PluginSearchPath.pluginFiles(in: directory, builtInsOnly: builtInsOnly) {
            case .success(let found):
                files = found
            case .failure(let refusal):
                refusals.append(refusal)
                continue
            }
            for file in files where seenFiles.insert(file).inserted && !excluding.contains(file) {
                willLoad(file)
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
                        path: file, name: candidate.name, version: candidate.version,
                        abiVersion: candidate.abiVersion, adjustmentIDs: accepted))
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
