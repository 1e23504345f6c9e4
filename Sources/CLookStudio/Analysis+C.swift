import CLookStudioHeader
import LookStudioKit

/// An analysis handed to C: the analysis, and C copies of its name, JSON and faces living as long as it.
final class AnalysisBox {
    let analysis: Analysis
    let sceneName: CString
    let json: CString
    let faces: UnsafeMutableBufferPointer<lookstudio_face>

    init(_ analysis: Analysis) {
        self.analysis = analysis
        sceneName = CString(analysis.sceneName)
        json = CString(analysis.json)
        let found = analysis.faces
        faces = .allocate(capacity: max(1, found.count))
        for (i, face) in found.enumerated() {
            faces[i] = lookstudio_face(x: Int64(face.x), y: Int64(face.y), width: Int64(face.width),
                                       height: Int64(face.height), score: face.score)
        }
    }

    deinit { faces.deallocate() }
}

@_cdecl("lookstudio_detect")
public func lookstudio_detect(_ engine: OpaquePointer?, _ image: OpaquePointer?,
                              _ analysis: UnsafeMutablePointer<OpaquePointer?>?,
                              _ error: UnsafeMutablePointer<OpaquePointer?>?) -> lookstudio_status {
    callMaking(analysis, "analysis", engine: engine, error: error) { (engine) throws(LookStudioError) in
        Handles.make(AnalysisBox(try engine.detect(try Handles.image(image))), .analysis)
    }
}

@_cdecl("lookstudio_detect_file")
public func lookstudio_detect_file(_ engine: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                   _ analysis: UnsafeMutablePointer<OpaquePointer?>?,
                                   _ error: UnsafeMutablePointer<OpaquePointer?>?) -> lookstudio_status {
    callMaking(analysis, "analysis", engine: engine, error: error) { (engine) throws(LookStudioError) in
        let path = try Structs.requiredText(path, role: "path", hint: "give an image file")
        return Handles.make(AnalysisBox(try engine.detect(file: path)), .analysis)
    }
}

@_cdecl("lookstudio_analysis_get")
public func lookstudio_analysis_get(_ analysis: OpaquePointer?, _ info: UnsafeMutablePointer<lookstudio_analysis_info>?,
                                    _ error: UnsafeMutablePointer<OpaquePointer?>?) -> lookstudio_status {
    call(error) { () throws(LookStudioError) in
        let box = try Handles.object(analysis, .analysis, as: AnalysisBox.self, role: "analysis")
        let value = lookstudio_analysis_info(
            struct_size: UInt32(MemoryLayout<lookstudio_analysis_info>.size), scene: Int32(box.analysis.scene),
            confidence: box.analysis.confidence, scene_name: UnsafePointer(box.sceneName.pointer),
            faces: UnsafePointer(box.faces.baseAddress), face_count: box.analysis.faces.count,
            json: UnsafePointer(box.json.pointer))
        try Structs.write(value, to: info, name: "lookstudio_analysis_info")
    }
}

@_cdecl("lookstudio_analysis_free")
public func lookstudio_analysis_free(_ analysis: OpaquePointer?) { Handles.free(analysis, .analysis) }
