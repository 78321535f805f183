import Foundation

/// One page of any list of the merchant and admin APIs, as the request asks for it: how many items,
/// where to start (`starting_after` / `ending_before` an item's id), a creation-time window and, where
/// the items have one, a status. Lists are ordered by (creation time, id), newest first, so a cursor stays
/// valid while items are added.
public struct PageRequest: Sendable, Equatable {
    /// The page size when the request gives none.
    public static let defaultLimit = 20
    /// The largest page size a request may ask for.
    public static let maximumLimit = 100

    /// Where a page starts, by the id of an item of the previous page.
    public enum Cursor: Sendable, Equatable {
        /// The items older than this one (the next page).
        case after(String)
        /// The items newer than this one (the previous page).
        case before(String)

        /// The item id.
        public var id: String {
            switch self {
            case .after(let id), .before(let id): id
            }
        }
    }

    /// Bounds on the items' creation time; nil bounds are open.
    public struct CreatedRange: Sendable, Equatable {
        public var gte: Date?
        public var gt: Date?
        public var lte: Date?
        public var lt: Date?

        public init(gte: Date? = nil, gt: Date? = nil, lte: Date? = nil, lt: Date? = nil) {
            self.gte = gte
            self.gt = gt
            self.lte = lte
            self.lt = lt
        }
    }

    public var limit: Int
    public var cursor: Cursor?
    public var created: CreatedRange
    /// The status the items must have, already checked against the list's statuses.
    public var status: String?
    /// The mode the items must have (``Livemode``): a merchant list shows only its key's mode; nil: both.
    public var livemode: Bool?

    /// Creates a page request.
    public init(
        limit: Int = PageRequest.defaultLimit, cursor: Cursor? = nil, created: CreatedRange = CreatedRange(),
        status: String? = nil
    ) {
        self.limit = limit
        self.cursor = cursor
        self.created = created
        self.status = status
    }

    /// The page `fetched` holds: up to ``limit`` items newest first, and whether more follow in the paging
    /// direction. `fetched` is what the store returned for this request (``limit`` + 1 rows at most,
    /// oldest first for an `ending_before` page, newest first otherwise).
    public func page<Item>(_ fetched: [Item]) -> Page<Item> {
        let items = Array(fetched.prefix(limit))
        if case .before = cursor {
            return Page(items: items.reversed(), hasMore: fetched.count > limit)
        }
        return Page(items: items, hasMore: fetched.count > limit)
    }
}

/// A page of a list: its items, newest first, and whether more follow in the direction it was asked for.
public struct Page<Item> {
    public var items: [Item]
    public var hasMore: Bool

    public init(items: [Item], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }

    /// The same page with each item transformed.
    public func map<Other>(_ transform: (Item) throws -> Other) rethrows -> Page<Other> {
        Page<Other>(items: try items.map(transform), hasMore: hasMore)
    }
}

extension Page: Sendable where Item: Sendable {}
