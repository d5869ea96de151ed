import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pagination strategies: resources of one page, each knowing how to find the
/// next one.
///
/// ```swift
/// func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
///     .pageNumber(url: postsURL, page: page, size: 20, pageParameter: "_page", sizeParameter: "_limit")
/// }
/// ```
extension Resource {
    // MARK: - Page number

    /// A page of a JSON array asked for by page number.
    ///
    /// The next page is the following number, unless the page is shorter than `size`
    /// or an `X-Total-Count` header says every item has been served. The previous
    /// page is the number before, down to `firstPage`; with `X-Total-Count`, the page
    /// also carries the total and the number of the last page.
    ///
    /// - Parameters:
    ///   - url: The list's URL.
    ///   - page: The page to load; `nil` for `firstPage`.
    ///   - size: How many items a page holds.
    ///   - firstPage: The number of the first page; 1 by default.
    ///   - pageParameter: The query item of the page number.
    ///   - sizeParameter: The query item of the page size; `nil` to send none.
    ///   - decoder: The decoder of the items; `nil` for a default `JSONDecoder`.
    /// - Returns: The resource of the page.
    public static func pageNumber<Item: Decodable & Sendable>(
        url: URL,
        page: Int?,
        size: Int,
        firstPage: Int = 1,
        pageParameter: String = "page",
        sizeParameter: String? = "per_page",
        decoder: JSONDecoder? = nil
    ) -> Resource<Page<Item, Int>> where A == Page<Item, Int> {
        let number = page ?? firstPage
        let served = (number - firstPage + 1) * size
        return .counted(
            url: url,
            query: [(pageParameter, number), (sizeParameter, size)],
            size: size,
            served: served,
            decoder: decoder,
            identifiedBy: "pageNumber(\(number), size: \(size), first: \(firstPage))"
        ) { _ in
            number + 1
        } around: { total in
            PageNeighbours(
                previous: number > firstPage ? number - 1 : nil,
                first: firstPage,
                last: total.map { firstPage + max(0, $0 - 1) / max(1, size) }
            )
        }
    }

    // MARK: - Offset

    /// A page of a JSON array asked for by offset and limit.
    ///
    /// The next offset follows the items served, unless the page is shorter than
    /// `limit` or an `X-Total-Count` header says every item has been served. The
    /// previous offset is `limit` before, down to 0; with `X-Total-Count`, the page
    /// also carries the total and the offset of the last page.
    ///
    /// - Parameters:
    ///   - url: The list's URL.
    ///   - offset: The offset to load from; `nil` for 0.
    ///   - limit: How many items a page holds.
    ///   - offsetParameter: The query item of the offset.
    ///   - limitParameter: The query item of the limit.
    ///   - decoder: The decoder of the items; `nil` for a default `JSONDecoder`.
    /// - Returns: The resource of the page.
    public static func offset<Item: Decodable & Sendable>(
        url: URL,
        offset: Int?,
        limit: Int,
        offsetParameter: String = "offset",
        limitParameter: String = "limit",
        decoder: JSONDecoder? = nil
    ) -> Resource<Page<Item, Int>> where A == Page<Item, Int> {
        let start = offset ?? 0
        return .counted(
            url: url,
            query: [(offsetParameter, start), (limitParameter, limit)],
            size: limit,
            served: start + limit,
            decoder: decoder,
            identifiedBy: "offset(\(start), limit: \(limit))"
        ) { count in
            start + count
        } around: { total in
            PageNeighbours(
                previous: start > 0 ? max(0, start - limit) : nil,
                first: 0,
                last: total.map { max(0, $0 - 1) / max(1, limit) * max(1, limit) }
            )
        }
    }

    private static func counted<Item: Decodable & Sendable>(
        url: URL,
        query: [(String?, Int)],
        size: Int,
        served: Int,
        decoder: JSONDecoder?,
        identifiedBy key: String,
        next: @escaping @Sendable (Int) -> Int,
        around neighbours: @escaping @Sendable (_ total: Int?) -> PageNeighbours<Int>
    ) -> Resource<Page<Item, Int>> where A == Page<Item, Int> {
        let items = query.compactMap { name, value in
            name.map { URLQueryItem(name: $0, value: String(value)) }
        }
        return Resource<[Item]>(url: url, query: items, decoder: decoder).mapPage(key) {
            items,
            response in
            let total = response.value(forHTTPHeaderField: "X-Total-Count").flatMap { Int($0) }
            let more = total.map { served < $0 } ?? (items.count >= size)
            let around = neighbours(total)
            return Page(
                items: items,
                next: more && !items.isEmpty ? next(items.count) : nil,
                previous: around.previous,
                first: around.first,
                last: around.last,
                totalCount: total
            )
        }
    }

    // MARK: - Cursor

    /// A page of a JSON envelope that carries an opaque cursor for the next page.
    ///
    /// ```swift
    /// .cursor(url: usersURL, cursor: next, envelope: UsersPage.self,
    ///         items: \.members, next: { $0.response_metadata?.next_cursor })
    /// ```
    ///
    /// There is no next page when the cursor is missing, `null` or empty. The parse is
    /// named by the strategy, the envelope type and `parameter`, not by the closures:
    /// two lists of one URL and envelope whose closures differ need
    /// ``Resource/identified(by:)`` to be told apart.
    ///
    /// - Parameters:
    ///   - url: The list's URL.
    ///   - cursor: The cursor of the page to load; `nil` for the first page.
    ///   - parameter: The query item that carries the cursor.
    ///   - envelope: The type of the response body.
    ///   - decoder: The decoder of the body; `nil` for a default `JSONDecoder`.
    ///   - items: The items of a body.
    ///   - next: The next cursor of a body.
    ///   - previous: The cursor of the page before, when the body carries one; `nil`
    ///     (the default) when the API only goes forward.
    ///   - totalCount: The count of the whole list, when the body carries one.
    /// - Returns: The resource of the page.
    public static func cursor<Item: Sendable, Envelope: Decodable & SendableMetatype>(
        url: URL,
        cursor: String?,
        parameter: String = "cursor",
        envelope: Envelope.Type,
        decoder: JSONDecoder? = nil,
        items: @escaping @Sendable (Envelope) -> [Item],
        next: @escaping @Sendable (Envelope) -> PageCursor?,
        previous: (@Sendable (Envelope) -> PageCursor?)? = nil,
        totalCount: (@Sendable (Envelope) -> Int?)? = nil
    ) -> Resource<Page<Item, String>> where A == Page<Item, String> {
        .enveloped(url: url, parameter: parameter, value: cursor, decoder: decoder, as: "cursor") {
            (body: Envelope) in
            Page(
                items: items(body),
                next: next(body)?.value,
                previous: previous?(body)?.value,
                totalCount: totalCount?(body)
            )
        }
    }

    /// A page of a JSON envelope with a `has_more` flag, whose next page starts after
    /// the identifier of its last item (Stripe's `starting_after`).
    ///
    /// ```swift
    /// .startingAfter(url: customersURL, after: next, envelope: CustomerList.self,
    ///                items: \.data, hasMore: \.hasMore, cursor: \.id)
    /// ```
    ///
    /// The parse is named by the strategy, the envelope type and `parameter`, not by
    /// the closures: two lists of one URL and envelope whose closures differ need
    /// ``Resource/identified(by:)`` to be told apart.
    ///
    /// - Parameters:
    ///   - url: The list's URL.
    ///   - after: The identifier the page starts after; `nil` for the first page.
    ///   - parameter: The query item that carries it.
    ///   - envelope: The type of the response body.
    ///   - decoder: The decoder of the body; `nil` for a default `JSONDecoder`.
    ///   - items: The items of a body.
    ///   - hasMore: Whether a body says more items follow.
    ///   - cursor: The identifier of an item.
    ///   - totalCount: The count of the whole list, when the body carries one
    ///     (Stripe's `total_count`).
    /// - Returns: The resource of the page.
    public static func startingAfter<Item: Sendable, Envelope: Decodable & SendableMetatype>(
        url: URL,
        after: String?,
        parameter: String = "starting_after",
        envelope: Envelope.Type,
        decoder: JSONDecoder? = nil,
        items: @escaping @Sendable (Envelope) -> [Item],
        hasMore: @escaping @Sendable (Envelope) -> Bool,
        cursor: @escaping @Sendable (Item) -> String,
        totalCount: (@Sendable (Envelope) -> Int?)? = nil
    ) -> Resource<Page<Item, String>> where A == Page<Item, String> {
        .enveloped(
            url: url,
            parameter: parameter,
            value: after,
            decoder: decoder,
            as: "startingAfter"
        ) { (body: Envelope) in
            let page = items(body)
            return Page(
                items: page,
                next: hasMore(body) ? page.last.map(cursor) : nil,
                totalCount: totalCount?(body)
            )
        }
    }

    // MARK: - Link header

    /// A page of a JSON array whose next page is the `Link` header's `rel="next"`, its
    /// previous page `rel="prev"` (or `"previous"`), and whose first and last pages are
    /// `rel="first"` and `rel="last"`; an `X-Total-Count` header gives the total.
    ///
    /// A relative target is resolved against the response's URL. A target on another
    /// origin (scheme, host or port) than `url` — the origin the app asked for, even
    /// when the page was redirected elsewhere — is not followed unless
    /// `allowsCrossOrigin` is `true`: it would carry the request's headers, such as
    /// `Authorization`, to another server. A monitor hears of each target refused
    /// (``LoadingEvent/Kind/linkRefused(target:)``) and of values that could not be
    /// read (``LoadingEvent/Kind/linkMalformed(valuesLeftOut:)``): either can end a
    /// list early.
    ///
    /// - Parameters:
    ///   - url: The page to load: the first page's URL, then each `next` target.
    ///   - allowsCrossOrigin: Whether a `next` on another origin is followed.
    ///   - decoder: The decoder of the items; `nil` for a default `JSONDecoder`.
    /// - Returns: The resource of the page.
    public static func linked<Item: Decodable & Sendable>(
        url: URL,
        allowsCrossOrigin: Bool = false,
        decoder: JSONDecoder? = nil
    ) -> Resource<Page<Item, URL>> where A == Page<Item, URL> {
        Resource<[Item]>(url: url, decoder: decoder).mapPage(
            "linked(crossOrigin: \(allowsCrossOrigin))"
        ) { items, response in
            let links = LinkHeader(response: response)
            if links.malformedValueCount > 0 {
                LinkReports.report?(.linkMalformed(valuesLeftOut: links.malformedValueCount))
            }
            func target(_ relations: String...) -> URL? {
                let link = links.links.first { !Set($0.relations).isDisjoint(with: relations) }
                guard let found = link?.url else { return nil }
                guard allowsCrossOrigin || found.hasSameOrigin(as: url) else {
                    LinkReports.report?(.linkRefused(target: found))
                    return nil
                }
                return found
            }
            return Page(
                items: items,
                next: target("next"),
                previous: target("prev", "previous"),
                first: target("first"),
                last: target("last"),
                totalCount: response.value(forHTTPHeaderField: "X-Total-Count").flatMap { Int($0) }
            )
        }
    }
}

/// What a numbered page knows of the pages around it. Not private: a client built with
/// `-cross-module-optimization` referred to a private type's descriptor and failed to
/// compile ("Global is external, but doesn't have external or weak linkage", Swift
/// 6.3.1).
struct PageNeighbours<Cursor: Sendable> {
    let previous: Cursor?
    let first: Cursor?
    let last: Cursor?
}

extension Resource {
    /// A resource of a page decoded from an `Envelope`, asked for with `value` in the
    /// query item `parameter` (none for the first page), whose parse is named by the
    /// `strategy`, the envelope and the item types and the parameter.
    fileprivate static func enveloped<Item: Sendable, Envelope: Decodable & SendableMetatype>(
        url: URL,
        parameter: String,
        value: String?,
        decoder: JSONDecoder?,
        as strategy: String,
        page: @escaping @Sendable (Envelope) -> Page<Item, String>
    ) -> Resource<Page<Item, String>> where A == Page<Item, String> {
        let query = value.map { [URLQueryItem(name: parameter, value: $0)] } ?? []
        let key = "\(strategy)(\(String(reflecting: Envelope.self)), \(parameter))"
        return Resource<Envelope>(url: url, query: query, decoder: decoder)
            .map(identifiedBy: key, page)
    }

    /// A resource of a page made by `page` from this resource's array and the
    /// response; `key` names `page` in the resource's identity.
    fileprivate func mapPage<Item: Sendable, Cursor: Sendable>(
        _ key: String,
        _ page: @escaping @Sendable ([Item], HTTPURLResponse) -> Page<Item, Cursor>
    ) -> Resource<Page<Item, Cursor>> where A == [Item] {
        let parse = self.parse
        return reparsed(as: parseIdentity.appending(.named(key))) { data, response in
            try page(parse(data, response), response)
        }
    }
}
