import ColorManagement
import Foundation
import ImageIO
import LookCore

/// A Lightroom / Adobe Camera Raw creative profile: XMP with `crs:PresetType="Look"` and an RGB table.
///
/// The table is at most 32 divisions (Lightroom's limit), so looks are resampled. The look's working space travels
/// as the table's primaries and gamma when it is sRGB, Display P3, Adobe RGB or Rec. 2020; strength travels as the
/// profile's Amount slider, 0–200 %, which scales the table against identity as LookStudio's strength does.
enum LightroomTarget {
    static let target = ExportTarget(
        id: "lightroom", format: "Lightroom / Camera Raw creative profile (XMP, crs:RGBTable)", fileExtension: "xmp",
        defaultSize: 32, sizes: 2...32, valueRange: "16-bit 0…65535 (deltas from identity)",
        cannotCarry: "> 32 divisions (resampled), working spaces other than sRGB / Display P3 / Adobe RGB / Rec. 2020",
        write: write)

    /// Group shown in Lightroom's profile browser.
    static let group = "LookStudio"

    static func write(_ look: ExportLook, size: Int, path: String) throws -> ExportResult {
        let encoding = tableEncoding(look.workingSpace)
        var (cube, warnings) = try look.table(size: size, target: "lightroom", keepStrength: true,
                                              keepSpace: encoding != nil)
        if look.cube.size > size {
            warnings.append("lightroom: the \(look.cube.size)³ look was resampled to \(size) divisions "
                            + "(Lightroom's limit is 32)")
        }
        if look.strength != 1 {
            let percent = Int((look.strength * 100).rounded())
            warnings.append("lightroom: profiles open at Amount 100; set the profile's Amount slider to \(percent) for "
                            + "strength \(percent) % (the slider runs 0–200)")
        }
        cube = cube.clampedToUnitRange().cube
        let (primaries, gamma) = encoding ?? (.sRGB, .sRGB)
        let stream = AdobeBigTable.rgbTableStream(cube, primaries: primaries, gamma: gamma, minAmount: 0, maxAmount: 2)
        let name = AdobeBigTable.fingerprint(stream)
        let text = AdobeBigTable.base85(try AdobeBigTable.compress(stream))
        let uuid = AdobeBigTable.fingerprint(Array(("LookStudio profile " + look.name + name).utf8))
        try AtomicFile.write(Data(xmp(name: look.name, uuid: uuid, fingerprint: name, table: text).utf8), to: path)
        return ExportResult(files: [path], warnings: warnings,
                            notes: ["install: copy to Lightroom's CameraRaw/Settings folder and restart; the profile "
                                    + "appears under Profiles › \(group)"])
    }

    /// The table's primaries and gamma for a named working space; nil when the DNG SDK has no such pair.
    static func tableEncoding(_ space: ColorProfile) -> (AdobeBigTable.Primaries, AdobeBigTable.Gamma)? {
        for (named, encoding) in [(ColorProfile.Named.sRGB, (AdobeBigTable.Primaries.sRGB, AdobeBigTable.Gamma.sRGB)),
                                  (.displayP3, (.displayP3, .sRGB)), (.adobeRGB, (.adobe, .gamma22)),
                                  (.rec2020, (.rec2020, .rec2020))]
        where space.isEquivalent(to: ColorProfile(named)) {
            return encoding
        }
        return nil
    }

    static func xmp(name: String, uuid: String, fingerprint: String, table: String) -> String {
        let n = xml(name), g = xml(group)
        func alt(_ tag: String, _ value: String) -> String {
            "   <crs:\(tag)>\n    <rdf:Alt>\n     <rdf:li xml:lang=\"x-default\">\(value)</rdf:li>\n    </rdf:Alt>\n"
                + "   </crs:\(tag)>\n"
        }
        return """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="LookStudio">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
           crs:PresetType="Look"
           crs:Cluster=""
           crs:UUID="\(uuid)"
           crs:SupportsAmount="True"
           crs:SupportsColor="True"
           crs:SupportsMonochrome="True"
           crs:SupportsHighDynamicRange="True"
           crs:SupportsNormalDynamicRange="True"
           crs:SupportsSceneReferred="True"
           crs:SupportsOutputReferred="True"
           crs:CameraModelRestriction=""
           crs:Copyright=""
           crs:ContactInfo=""
           crs:Version="14.0"
           crs:ProcessVersion="11.0"
           crs:ConvertToGrayscale="False"
           crs:RGBTable="\(fingerprint)"
           crs:Table_\(fingerprint)="\(table)"
           crs:HasSettings="True">
        \(alt("Name", n))\(alt("ShortName", n))\(alt("SortName", n))\(alt("Group", g))\
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>

        """
    }

    static func xml(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
