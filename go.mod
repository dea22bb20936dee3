module birch

go 1.26
