import CLookStudioHeader
import LookStudioKit

/// An image handed to C.
final class ImageBox {
    let image: Image
    init(_ image: Image) { self.image = image }
}

@_cdecl("lookstudio_image_desc_init")
public func lookstudio_image_desc_init(_ desc: UnsafeMutablePointer<lookstudio_image_desc>?) {
    desc?.pointee = lookstudio_image_desc()
    desc?.pointee.struct_size = UInt32(MemoryLayout<lookstudio_image_desc>.size)
}

@_cdecl("lookstudio_image_create")
public func lookstudio_image_create(_ desc: UnsafePointer<lookstudio_image_desc>?,
                                    _ image: UnsafeMutablePointer<OpaquePointer?>?,
                                    _ error: UnsafeMutablePointer<OpaquePointer?>?) -> lookstudio_status {
    callMaking(image, "image", error: error) { () throws(LookStudioError) in
        let d = try Structs.read(desc, defaults: lookstudio_image_desc(), name: "lookstudio_image_desc")
        return Handles.make(ImageBox(try wrap(d)), .image)
    }
}

@_cdecl("lookstudio_image_free")
public func lookstudio_image_free(_ image: OpaquePointer?) { Handles.free(image, .image) }

/// The Swift image a description makes: sizes checked, the ICC profile copied and parsed.
private func wrap(_ d: lookstudio_image_desc) throws(LookStudioError) -> Image {
    var icc: [UInt8]?
    if d.icc_size != 0 {
        guard let bytes = d.icc else {
            throw LookStudioError(.invalidArgument, "icc is NULL but icc_size is \(UInt(bitPattern: d.icc_size))")
        }
        // A profile is a few kilobytes; a size near the address space is a wrong field, not a profile.
        guard d.icc_size > 0, d.icc_size <= iccSizeLimit else {
            throw LookStudioError(.invalidArgument, "icc_size \(UInt(bitPattern: d.icc_size)) is over the "
                                  + "\(iccSizeLimit >> 20) MB an ICC profile may have")
        }
        icc = Array(UnsafeBufferPointer(start: bytes, count: d.icc_size))
    }
    guard let width = Int(exactly: d.width), let height = Int(exactly: d.height),
          let stride = Int(exactly: d.stride) else {
        throw LookStudioError(.invalidArgument, "width, height and stride must fit this machine's address space")
    }
    return try Image(pixels: d.pixels, width: width, height: height, channels: Int(d.channels), bits: Int(d.bits),
                     rowBytes: stride, icc: icc)
}

/// The largest ICC profile accepted, in bytes.
private let iccSizeLimit = 64 << 20
