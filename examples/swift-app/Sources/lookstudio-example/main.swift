// A photo's pixels through LookStudioKit: a catalog look by GUID, or the correction after one detection at several
// strengths — the bytes `lookstudio apply --look` and `lookstudio correct` write for the same decoded photo.
//
//   lookstudio-example CATALOG IN.png LOOK STRENGTH OUT.png
//   lookstudio-example --correct CATALOG IN.png OUT S1 [S2 …]     writes OUT-sS1.png, …
import Foundation
import LookStudioKit

func run(_ arguments: [String]) throws {
    let correct = arguments.first == "--correct"
    let args = correct ? Array(arguments.dropFirst()) : arguments
    guard args.count >= 4, correct || args.count == 5, let _ = Double(args[3]) else {
        print("usage: lookstudio-example CATALOG IN.png LOOK STRENGTH OUT.png\n"
              + "       lookstudio-example --correct CATALOG IN.png OUT S1 [S2 …]")
        exit(2)
    }
    let engine = try Engine(catalog: args[0])
    let photo = try Pixels<UInt8>.read(file: args[1])
    if !correct {
        let out = try engine.apply(Params(look: args[2], lookStrength: Double(args[3])), to: photo)
        try out.write(file: args[4])
        print("wrote \(args[4])")
        return
    }
    let analysis = try engine.detect(photo)
    print("scene \(analysis.scene) (\(analysis.sceneName)), confidence \(analysis.confidence), "
          + "\(analysis.faces.count) faces")
    for strength in args[3...] {
        var params = Params()
        params.strength = Double(strength) ?? 100
        let file = "\(args[2])-s\(strength).png"
        try engine.apply(params, to: photo, analysis: analysis).write(file: file)
        print("wrote \(file)")
    }
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("lookstudio-example: \(error)\n".utf8))
    exit(1)
}
