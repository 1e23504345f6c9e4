import CLookStudioHeader
import LookStudioKit

@_cdecl("lookstudio_apply")
public func lookstudio_apply(_ engine: OpaquePointer?, _ input: OpaquePointer?, _ analysis: OpaquePointer?,
                             _ params: UnsafePointer<lookstudio_params>?, _ output: OpaquePointer?,
                             _ error: UnsafeMutablePointer<OpaquePointer?>?) -> lookstudio_status {
    call(error) { () throws(LookStudioError) in
        let (engine, input, analysis) = try arguments(engine, input, analysis)
        let target = try Handles.image(output, role: "output")
        try engine.apply(try Params(params), to: input, analysis: analysis, into: target)
    }
}

@_cdecl("lookstudio_apply_many")
public func lookstudio_apply_many(_ engine: OpaquePointer?, _ input: OpaquePointer?, _ analysis: OpaquePointer?,
                                  _ params: UnsafePointer<lookstudio_params>?,
                                  _ outputs: UnsafePointer<OpaquePointer?>?, _ count: Int,
                                  _ error: UnsafeMutablePointer<OpaquePointer?>?) -> lookstudio_status {
    call(error) { () throws(LookStudioError) in
        let (engine, input, analysis) = try arguments(engine, input, analysis)
        guard count >= 0 else {
            throw LookStudioError(.invalidArgument, "count \(UInt(bitPattern: count)) is too large")
        }
        guard count > 0 else { return }
        guard let params, let outputs else {
            throw LookStudioError(.invalidArgument, "params and outputs must point to \(count) entries each")
        }
        // Every entry is checked before the first is rendered, so a wrong one leaves every output untouched.
        var jobs: [(Params, Image)] = []
        for i in 0..<count {
            let target = try Handles.image(outputs[i], role: "outputs[\(i)]")
            jobs.append((try Params(params + i), target))
        }
        for (p, target) in jobs { try engine.apply(p, to: input, analysis: analysis, into: target) }
    }
}

@_cdecl("lookstudio_cube")
public func lookstudio_cube(_ engine: OpaquePointer?, _ image: OpaquePointer?, _ analysis: OpaquePointer?,
                            _ params: UnsafePointer<lookstudio_params>?, _ size: Int32,
                            _ values: UnsafeMutablePointer<Float>?, _ count: Int,
                            _ error: UnsafeMutablePointer<OpaquePointer?>?) -> lookstudio_status {
    call(error) { () throws(LookStudioError) in
        let engine = try Handles.engine(engine)
        let image = try Handles.optionalImage(image)
        let analysis = try Handles.optionalAnalysis(analysis)
        guard (2...256).contains(size) else {
            throw LookStudioError(.invalidArgument, "size \(size) is out of range: use 2…256 points per axis")
        }
        let needed = Int(size) * Int(size) * Int(size) * 3
        guard count == needed, let values else {
            throw LookStudioError(.invalidArgument, "values must hold size³·3 = \(needed) floats for size \(size); "
                                  + "count is \(UInt(bitPattern: count))\(values == nil ? " and values is NULL" : "")")
        }
        let cube = try engine.cube(try Params(params), for: image, analysis: analysis, size: Int(size))
        _ = UnsafeMutableBufferPointer(start: values, count: needed).update(fromContentsOf: cube)
    }
}

/// The engine, input image and optional analysis of an apply, checked.
private func arguments(_ engine: OpaquePointer?, _ input: OpaquePointer?, _ analysis: OpaquePointer?)
    throws(LookStudioError) -> (Engine, Image, Analysis?) {
    (try Handles.engine(engine), try Handles.image(input, role: "input"), try Handles.optionalAnalysis(analysis))
}
