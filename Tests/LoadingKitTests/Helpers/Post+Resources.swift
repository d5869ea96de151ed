import LoadingKit

extension Post {
    /// The post's own resource, `/posts/ID`, as a detail screen loads it.
    static func resource(id: Int) -> Resource<Post> {
        Resource(url: baseURL.appending(path: "posts/\(id)"))
    }

    /// A `PATCH /posts/ID` renaming the post to `title`, answered with the post.
    static func rename(id: Int, to title: String) throws -> Mutation<Post> {
        try Mutation(
            Resource<Post>(
                url: baseURL.appending(path: "posts/\(id)"),
                method: .patch,
                body: Post(id: id, title: title)
            )
        )
    }
}
