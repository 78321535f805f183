import Foundation

/// Where `swift build` put the products the tests use (the `switchyard` executable, the plugin
/// libraries): the directory of the running test binary or one of its parents.
public enum BuiltProducts {
    /// The build directory, found from the running test binary.
    public static var directory: String {
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: exe).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("switchyard").path) {
                return url.path
            }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: exe).deletingLastPathComponent().path
    }

    /// The built `switchyard` executable (it runs the plugin scanner processes).
    public static var switchyard: String { directory + "/switchyard" }
}
