import Foundation

/// The number of cores work is split across.
enum ProcessInfoCores {
    static let active = Swift.max(1, ProcessInfo.processInfo.activeProcessorCount)
}
