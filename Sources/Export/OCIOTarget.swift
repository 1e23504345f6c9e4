import Foundation
import ImageIO

/// An OpenColorIO 2 config declaring the look: `config.ocio` plus the look's CLF beside it.
///
/// The config has the look's working space as a colour space, the look (process space = that space, a
/// FileTransform of the CLF), a second colour space "<space> + <look>" that applies it (so tools without a looks
/// menu can reach it as a plain conversion) and an sRGB display with a view per colour space.
enum OCIOTarget {
    static let target = ExportTarget(
        id: "ocio", format: "OpenColorIO 2 config (config.ocio + CLF): Nuke, Blender, Maya, Houdini, Krita",
        fileExtension: "ocio", defaultSize: 33, sizes: 2...129, valueRange: "float 32f (beyond 0…1 kept)",
        cannotCarry: "strength (the working space is named as the look's process space)",
        write: write)

    static func write(_ look: ExportLook, size: Int, path: String) throws -> ExportResult {
        let dir = (path as NSString).deletingLastPathComponent
        // The CLF is named after its config as well as the look, so two configs in one folder never share (and
        // overwrite) each other's CLF, even for looks whose names slug alike ("Teal & Orange", "Teal - Orange").
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let clfName = base + "." + CLFTarget.slug(look.name) + ".clf"
        let clfPath = dir.isEmpty ? clfName : dir + "/" + clfName
        var result = try CLFTarget.write(look, size: size, to: clfPath, target: "ocio")
        let space = look.workingSpace.description
        let name = lookName(look.name)
        try AtomicFile.write(Data(config(look: name, space: space, clf: clfName).utf8), to: path)
        result.files.insert(path, at: 0)
        if name != look.name {
            result.notes.append("the look is named \"\(name)\" in the config: OpenColorIO reads , and : in a look "
                                + "list as separators and a leading + or - as a direction")
        }
        result.notes.append("ocioconvert: OCIO=\(path) ocioconvert IN.png \(quoted(space)) OUT.png "
                            + quoted(gradedSpace(look: name, space: space)))
        return result
    }

    /// `name` as an OpenColorIO look name: a view's `looks:` is a list split at "," and ":", each item read with
    /// an optional leading "+" or "-" (the direction), so those characters cannot be part of a name.
    static func lookName(_ name: String) -> String {
        let spaced = name.map { $0 == "," || $0 == ":" ? " " : $0 }
        var words = String(spaced).split(separator: " ").joined(separator: " ")
        while let first = words.first, first == "+" || first == "-" || first == " " { words.removeFirst() }
        return words.isEmpty ? "Look" : words
    }

    /// The colour space that applies the look.
    static func gradedSpace(look: String, space: String) -> String { "\(space) + \(look)" }

    /// The config text; every name is a double-quoted YAML string.
    static func config(look: String, space: String, clf: String) -> String {
        let s = yaml(space), l = yaml(look), graded = yaml(gradedSpace(look: look, space: space)), file = yaml(clf)
        return """
        ocio_profile_version: 2

        environment:
          {}
        search_path: "."
        strictparsing: true
        luma: [0.2126, 0.7152, 0.0722]
        name: \(yaml("LookStudio - " + look))
        description: \(yaml("Written by LookStudio: the look \"\(look)\" authored in \(space)."))

        roles:
          default: \(s)
          color_picking: \(s)
          color_timing: \(s)
          compositing_log: \(s)
          data: \(s)
          matte_paint: \(s)
          reference: \(s)
          rendering: \(s)
          scene_linear: \(s)
          texture_paint: \(s)

        file_rules:
          - !<Rule> {name: Default, colorspace: default}

        displays:
          sRGB:
            - !<View> {name: Raw, colorspace: \(s)}
            - !<View> {name: \(l), colorspace: \(s), looks: \(l)}

        active_displays: []
        active_views: []

        looks:
          - !<Look>
            name: \(l)
            process_space: \(s)
            transform: !<FileTransform> {src: \(file), interpolation: tetrahedral}

        colorspaces:
          - !<ColorSpace>
            name: \(s)
            family: ""
            equalitygroup: ""
            bitdepth: 32f
            description: \(yaml("RGB encoded as " + space + "; the look's working space"))
            isdata: false
            allocation: uniform

          - !<ColorSpace>
            name: \(graded)
            family: ""
            equalitygroup: ""
            bitdepth: 32f
            description: \(yaml("The look \"" + look + "\" applied to " + space))
            isdata: false
            allocation: uniform
            from_scene_reference: !<FileTransform> {src: \(file), interpolation: tetrahedral}

        """
    }

    static func yaml(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
