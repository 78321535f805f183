import Foundation
import SwitchyardCore

extension PageRequest {
    /// What the store's page query returns for `items` (already limited to the list's scope), for test
    /// doubles: filtered, ordered by (created, id) newest first (oldest first for `ending_before`), cut
    /// after the cursor, `limit + 1` at most; only the items of the request's mode when `livemode` is given.
    /// `400 invalid_parameter` when the cursor is not among `items`.
    public func select<Item>(
        _ items: [Item], id: (Item) -> String, created: (Item) -> Date, status: ((Item) -> String)? = nil,
        livemode: ((Item) -> Bool)? = nil
    ) throws -> [Item] {
        let wanted = self.livemode
        let items = items.filter { item in wanted.map { mode in livemode.map { $0(item) == mode } ?? true } ?? true }
        let newest = items.sorted { (created($0), id($0)) > (created($1), id($1)) }
        var list = newest
        if let cursor {
            guard let index = newest.firstIndex(where: { id($0) == cursor.id }) else {
                let name = if case .after = cursor { "starting_after" } else { "ending_before" }
                throw CoreError(.invalidParameter, "\(name) must be the id of an item of this list", param: name)
            }
            if case .after = cursor {
                list = Array(newest[(index + 1)...])
            } else {
                list = Array(newest[..<index].reversed())
            }
        }
        list = list.filter { item in
            let date = created(item)
            return (self.created.gte.map { date >= $0 } ?? true) && (self.created.gt.map { date > $0 } ?? true)
                && (self.created.lte.map { date <= $0 } ?? true) && (self.created.lt.map { date < $0 } ?? true)
                && (self.status.map { wanted in status.map { $0(item) == wanted } ?? true } ?? true)
        }
        return Array(list.prefix(limit + 1))
    }
}
