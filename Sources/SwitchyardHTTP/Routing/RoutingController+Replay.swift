import Foundation
import Hummingbird
import SwitchyardCore

extension RoutingController {
    /// The body of `routing/replay`: a draft routing (the schema of `PUT …/routing`), the window of logged
    /// payments to replay it over, and a page of the payments it would move.
    struct ReplayRequest: Decodable {
        struct Window: Decodable {
            var from: Date?
            var to: Date?
            var last: Int?
        }

        var rules: [AdminBodies.RuleBody]
        var window: Window?
        var changesLimit: Int?
        var changesCursor: String?

        enum CodingKeys: String, CodingKey {
            case rules, window
            case changesLimit = "changes_limit"
            case changesCursor = "changes_cursor"
        }
    }

    /// The most payments that would change account listed in one answer, and the default.
    static let maximumChangesLimit = 100
    static let defaultChangesLimit = 20

    func replay(tenant: UUID, json: JSONBody) async throws -> Response {
        guard let replay else {
            throw APIError(.notSupported, "routing replay is not available on this server")
        }
        let body = try json.decode(ReplayRequest.self)
        let limit = body.changesLimit ?? Self.defaultChangesLimit
        guard (1...Self.maximumChangesLimit).contains(limit) else {
            throw APIError(
                .invalidLimit, "changes_limit must be between 1 and \(Self.maximumChangesLimit)",
                param: "changes_limit")
        }
        let window = ReplayWindow(from: body.window?.from, to: body.window?.to, last: body.window?.last)
        let report: RoutingReplay.Report
        do {
            report = try await replay.replay(
                tenant: tenant, draft: Self.rules(AdminBodies.Routing(rules: body.rules)), window: window)
        } catch let rejection as RoutingAdminService.Rejection {
            throw APIError(.invalidRouting, rejection.message, issues: rejection.issues.map(APIError.Issue.init))
        }
        var start = report.changes.startIndex
        if let cursor = body.changesCursor {
            guard let index = report.changes.firstIndex(where: { $0.paymentId == cursor }) else {
                throw APIError(
                    .invalidParameter, "changes_cursor must be the payment id of a change of this replay",
                    param: "changes_cursor")
            }
            start = index + 1
        }
        let page = Array(report.changes[start...].prefix(limit))
        let more = start + page.count < report.changes.count
        return JSONIO.response(
            .ok, ReplayBody(report, changes: page, nextCursor: more ? page.last?.paymentId : nil))
    }
}
