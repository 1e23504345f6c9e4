import CCodeLocation
import Foundation

/// Where LookStudio's code was loaded from: the `lookstudio` executable, or the shared library (liblookstudio.so)
/// inside another program — a Python interpreter, an app. Files that ship beside the code (the seed catalog, the
/// correction model, the plugins) are found from here, so an installed library finds them as the installed
/// command does, whichever program loaded it.
public enum CodeLocation {
    /// The real path of the executable or shared library holding this code (nil where the system cannot say).
    public static let file: String? = {
        // The loader names a shared library by its path; the main program it may name by argv[0], which a changed
        // folder or a PATH lookup makes useless, so the executable comes from /proc/self/exe.
        if let name = lscode_image_path().map({ String(cString: $0) }), name.hasSuffix(".so") || name.contains(".so."),
           let real = realpath(name, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath
    }()

    /// The folder holding `file`.
    public static var directory: String? {
        file.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
    }

    /// `PREFIX/share/lookstudio` for code installed in `PREFIX/bin` or `PREFIX/lib` (`make install`).
    public static var installedShareDirectory: String? {
        directory.map {
            URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("share/lookstudio").path
        }
    }
}
