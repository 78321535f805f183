import Foundation

/// The products `swift build` put beside the test binary.
public enum BuildProducts {
    /// The directory holding the built `switchyard` executable and plugin libraries: the test binary's
    /// directory or the nearest parent with `switchyard` in it.
    public static var directory: String {
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: exe).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("switchyard").path) {
                return url.path
            }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: exe).deletingLastPathComponent().path
    }

    /// The built `switchyard` executable (run `swift build` before the tests).
    public static var switchyard: String { directory + "/switchyard" }
}
