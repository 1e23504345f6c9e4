import CLookStudioHeader
import LookStudioKit

@_cdecl("lookstudio_engine_options_init")
public func lookstudio_engine_options_init(_ options: UnsafeMutablePointer<lookstudio_engine_options>?) {
    options?.pointee = lookstudio_engine_options(struct_size: UInt32(MemoryLayout<lookstudio_engine_options>.size),
                                                 catalog_path: nil, plugin_dirs: nil)
}

@_cdecl("lookstudio_engine_open")
public func lookstudio_engine_open(_ options: UnsafePointer<lookstudio_engine_options>?,
                                   _ engine: UnsafeMutablePointer<OpaquePointer?>?,
                                   _ error: UnsafeMutablePointer<OpaquePointer?>?) -> lookstudio_status {
    callMaking(engine, "engine", error: error) { () throws(LookStudioError) in
        var given = lookstudio_engine_options()
        lookstudio_engine_options_init(&given)
        if let options { given = try Structs.read(options, defaults: given, name: "lookstudio_engine_options") }
        let catalog = try Structs.text(given.catalog_path, role: "catalog_path")
        let plugins = try Structs.text(given.plugin_dirs, role: "plugin_dirs")?
            .split(separator: ":", omittingEmptySubsequences: true).map(String.init) ?? []
        return Handles.make(try Engine(catalog: catalog, pluginDirectories: plugins), .engine)
    }
}

@_cdecl("lookstudio_engine_close")
public func lookstudio_engine_close(_ engine: OpaquePointer?) { Handles.free(engine, .engine) }

/// A look list handed to C: the looks, and C copies of their strings living as long as the list.
final class LooksBox {
    let looks: [Look]
    let infos: [lookstudio_look_info]
    /// The C strings and tag arrays `infos` point into.
    private let strings: [CString]
    private let tagArrays: [UnsafeMutableBufferPointer<UnsafePointer<CChar>?>]

    init(_ looks: [Look]) {
        self.looks = looks
        var strings: [CString] = []
        var tagArrays: [UnsafeMutableBufferPointer<UnsafePointer<CChar>?>] = []
        func copy(_ text: String) -> UnsafePointer<CChar> {
            strings.append(CString(text))
            return UnsafePointer(strings[strings.count - 1].pointer)
        }
        infos = looks.map { look in
            let tags = UnsafeMutableBufferPointer<UnsafePointer<CChar>?>.allocate(capacity: max(1, look.tags.count))
            for (i, tag) in look.tags.enumerated() { tags[i] = copy(tag) }
            tagArrays.append(tags)
            return lookstudio_look_info(
                struct_size: UInt32(MemoryLayout<lookstudio_look_info>.size), cube_size: Int32(clamping: look.cubeSize),
                version: Int32(clamping: look.version), reserved: 0, guid: copy(look.guid), name: copy(look.name),
                description: copy(look.description), working_space: copy(look.workingSpace),
                tags: UnsafePointer(tags.baseAddress), tag_count: look.tags.count)
        }
        self.strings = strings
        self.tagArrays = tagArrays
    }

    deinit { tagArrays.forEach { $0.deallocate() } }
}

@_cdecl("lookstudio_looks_list")
public func lookstudio_looks_list(_ engine: OpaquePointer?, _ tag: UnsafePointer<CChar>?,
                                  _ looks: UnsafeMutablePointer<OpaquePointer?>?,
                                  _ error: UnsafeMutablePointer<OpaquePointer?>?) -> lookstudio_status {
    callMaking(looks, "looks", engine: engine, error: error) { (engine) throws(LookStudioError) in
        Handles.make(LooksBox(try engine.looks(tag: try Structs.text(tag, role: "tag"))), .looks)
    }
}

@_cdecl("lookstudio_look_find")
public func lookstudio_look_find(_ engine: OpaquePointer?, _ reference: UnsafePointer<CChar>?,
                                 _ looks: UnsafeMutablePointer<OpaquePointer?>?,
                                 _ error: UnsafeMutablePointer<OpaquePointer?>?) -> lookstudio_status {
    callMaking(looks, "looks", engine: engine, error: error) { (engine) throws(LookStudioError) in
        let reference = try Structs.requiredText(reference, role: "reference",
                                                 hint: "give a look's GUID, GUID prefix or name")
        return Handles.make(LooksBox([try engine.look(reference)]), .looks)
    }
}

@_cdecl("lookstudio_looks_count")
public func lookstudio_looks_count(_ looks: OpaquePointer?) -> Int {
    (try? Handles.object(looks, .looks, as: LooksBox.self, role: "looks"))?.infos.count ?? 0
}

@_cdecl("lookstudio_looks_get")
public func lookstudio_looks_get(_ looks: OpaquePointer?, _ index: Int,
                                 _ info: UnsafeMutablePointer<lookstudio_look_info>?,
                                 _ error: UnsafeMutablePointer<OpaquePointer?>?) -> lookstudio_status {
    call(error) { () throws(LookStudioError) in
        let box = try Handles.object(looks, .looks, as: LooksBox.self, role: "looks")
        guard box.infos.indices.contains(index) else {
            throw LookStudioError(.invalidArgument, "index \(UInt(bitPattern: index)) is past the list's "
                                  + "\(box.infos.count) looks")
        }
        try Structs.write(box.infos[index], to: info, name: "lookstudio_look_info")
    }
}

@_cdecl("lookstudio_looks_free")
public func lookstudio_looks_free(_ looks: OpaquePointer?) { Handles.free(looks, .looks) }
