import ImageIO
import LookModel

/// Draws what `detect` saw onto a picture: a box around each face with its score, and the scene in a banner.
public enum FaceOverlay {
    /// `image` as 8-bit RGB (16-bit reduced, alpha dropped) with `faces` (in its pixels) outlined and
    /// `label` written top-left; lines and letters scale with the image so they read at any size.
    public static func draw(on image: PixelBuffer, faces: [FaceRegion], label: String) throws(ImageIOError)
        -> PixelBuffer {
        var canvas = Canvas(image)
        let longSide = max(image.width, image.height)
        let line = max(2, longSide / 300), scale = max(2, longSide / 320)
        for face in faces {
            canvas.rectangle(face.x - line, face.y - line, face.width + 2 * line, face.height + 2 * line,
                             thickness: line, colour: (0, 0, 0))
            canvas.rectangle(face.x, face.y, face.width, face.height, thickness: line, colour: (60, 255, 60))
            let score = format2(face.score)
            let textHeight = Font.height * scale + 2 * scale
            canvas.text(score, x: face.x, y: max(0, face.y - line - textHeight), scale: scale)
        }
        canvas.text(label, x: scale * 2, y: scale * 2, scale: scale)
        return try PixelBuffer(width: image.width, height: image.height, channels: 3, samples: .eight(canvas.rgb))
    }

    private static func format2(_ x: Double) -> String {
        let hundredths = Int((x * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let a = abs(hundredths)
        return "\(sign)\(a / 100).\(a % 100 < 10 ? "0" : "")\(a % 100)"
    }
}
