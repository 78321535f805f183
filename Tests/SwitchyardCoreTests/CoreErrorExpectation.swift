import Testing

@testable import SwitchyardCore

/// Expects `body` to throw a ``CoreError`` with `code` and `status`.
func expectCoreError(
    _ code: String, status: Int, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async {
    do {
        try await body()
        Issue.record("expected \(code)", sourceLocation: sourceLocation)
    } catch let error as CoreError {
        #expect(error.code == code, sourceLocation: sourceLocation)
        #expect(error.status == status, sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
}
