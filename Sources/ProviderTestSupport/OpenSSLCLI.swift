import Foundation

/// Runs the `openssl` command-line tool in a private temporary directory, for interoperability tests.
public struct OpenSSLCLI: Sendable {
    /// A command that did not exit with status 0.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The private working directory.
    public let directory: URL

    /// Creates the working directory.
    public init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchyard-openssl-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Removes the temporary directory.
    public func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes `bytes` to `name` in the directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Writes UTF-8 `text` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    /// Reads the file `name` from the directory.
    public func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The path of `name` in the directory.
    public func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Runs `openssl arguments…` and returns its exit status and standard output.
    @discardableResult
    public func run(_ arguments: [String]) throws -> (status: Int32, output: [UInt8]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, Array(data))
    }

    /// Runs `openssl arguments…`, throwing unless it exits with status 0; returns standard output.
    @discardableResult
    public func mustRun(_ arguments: [String]) throws -> [UInt8] {
        let result = try run(arguments)
        guard result.status == 0 else {
            throw Failure(description: "openssl \(arguments.first ?? "") exited with \(result.status)")
        }
        return result.output
    }
}
